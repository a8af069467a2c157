#include "threads.h"

#include <Eigen/Core>

namespace attnlab {

void set_engine_threads(int threads)
{
    Eigen::setNbThreads(threads < 1 ? 1 : threads);
}

int engine_threads()
{
    return Eigen::nbThreads();
}

} // namespace attnlab
