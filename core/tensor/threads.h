#pragma once
namespace attnlab {
// How many cores the engine's GEMMs may use (OpenMP through Eigen when the build has it).
void set_engine_threads(int threads);
int engine_threads();
} // namespace attnlab
