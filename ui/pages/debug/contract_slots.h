#pragma once
// The slots a contract finding concerns, read outside Qt: Qt defines `slots` as a macro, so
// ContractFinding::slots cannot be named in a file that includes Qt headers. This file and its .cpp
// include no Qt; files that use contract.h alongside Qt include it before any Qt header.
#include <string>
#include <vector>

namespace attnlab {
struct ContractReport;
}

namespace attnlab::ui {

// Every slot some finding of the report concerns, each once, in order of first mention.
std::vector<std::string> flaggedSlots(const ContractReport& report);

} // namespace attnlab::ui
