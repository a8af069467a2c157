#pragma once
// Numbers printed the way Python's repr() prints them, so calls we write read exactly like the
// book's code and like the golden files' recorded calls.
#include <string>

namespace attnlab {

// 0.0, 0.1, 0.25, 1e-05, 1e+16, nan, inf: the shortest text that reads back as the same double.
std::string python_float_repr(double value);

} // namespace attnlab
