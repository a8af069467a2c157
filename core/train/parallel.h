#pragma once
// Independent pieces of training work (runs, their head reports) spread over threads, each on one engine
// thread: they share nothing but the counter handing out the next index.
#include <cstddef>
#include <functional>

namespace attnlab::train {

// Calls fn(i) for every i in [0, count) on `threads` threads (< 1: one per core; never more than count),
// with the engine's GEMMs set to one thread meanwhile. When calls throw, the first index's exception is
// rethrown once every thread has stopped.
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& fn);

} // namespace attnlab::train
