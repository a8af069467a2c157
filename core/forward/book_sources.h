#pragma once
// The book's chapter-3 classes as resources/pytorch/<Class>.py holds them -- the project's only copy,
// compiled in at build time (core/CMakeLists.txt), so the stepper, the PyTorch export and the Python
// reference generators all show and run the same text.
#include "call/config.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// The whole file of the module's class, e.g. "class CausalAttention(nn.Module):\n    def __init__...".
std::string_view book_source(ModuleKind kind);
// The file's lines, without the trailing newline of each.
std::vector<std::string> book_source_lines(ModuleKind kind);

} // namespace attnlab
