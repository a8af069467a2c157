#pragma once
#include "call/config.h"

#include <string>
#include <vector>

namespace attnlab {

// The forward's Python source as the book writes it, one entry per line.
const std::vector<std::string>& module_source(ModuleKind kind);
// The line (index into module_source) that produces a canonical stage; -1 when none does.
int source_line(ModuleKind kind, const std::string& stage);

} // namespace attnlab
