#include "tensor/threads.h"

#include "tensor/gemm.h"

#include <Eigen/Core>

namespace attnlab {

void set_engine_threads(int threads)
{
    Eigen::setNbThreads(threads < 1 ? 1 : threads);
    set_gemm_threads(threads);
}

int engine_threads()
{
    return Eigen::nbThreads();
}

} // namespace attnlab
