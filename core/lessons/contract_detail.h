#pragma once
// The pieces of the contract check that read values and judge one reading of a call; shared by
// contract.cpp and contract_readings.cpp, not part of the lesson's API.
#include "lessons/contract.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::contract_detail {

using Reading = std::map<std::string, std::size_t>; // slot -> index into ContractReport::values

struct Number {
    double value = 0;
    bool integral = false; // written as an int literal
};

std::optional<Number> number_of(const ContractValue& v);
bool has_slot(ModuleKind kind, const std::string& slot);
// Everything that stops a reading of the call from being a working module, one clause each.
std::vector<std::string> troubles(ModuleKind kind, const std::vector<ContractValue>& values, const Reading& r,
                                  const ContractInput& in);
std::string join(const std::vector<std::string>& parts, const std::string& sep);
std::string order_text(const std::vector<std::string>& slots); // "(d_in, d_out, ...)"
// The call text with every value replaced by texts[i] (keywords and spacing kept).
std::string render(const std::string& call, const std::vector<ContractValue>& values,
                   const std::vector<std::string>& texts);

} // namespace attnlab::contract_detail
