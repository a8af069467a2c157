#pragma once
// The one reading of a constructor call that every front end shows -- the call line and its caret
// message, the settings column's diagnostics, `validate` and the contract tab: Python's binding, and
// the contract's likely confusion named first (two values swapped, or the call written for another slot
// order), with the swapped call as its fix; then what validate() says that the swap does not explain.
#include "call/call_parser.h"
#include "call/config.h"
#include "lessons/contract.h"

#include <optional>
#include <string_view>
#include <vector>

namespace attnlab {

struct CallReading {
    std::optional<Config> config;   // the call as Python binds it, when it binds
    std::optional<CallError> error; // why it does not; a likely swap is said in place of the binder's advice
    // The likely swap first (code SlotsSwapped, its call_fix the swapped call); then, when the call does
    // not bind and no swap explains it, the binder's error (CallSyntax); then validate()'s diagnostics of
    // the bound config that are still there once the swap is fixed.
    std::vector<Diagnostic> diagnostics;
    ContractReport contract; // the reading the contract tab shows
};

CallReading read_call(std::string_view text, std::optional<InputShape> input = std::nullopt);

} // namespace attnlab
