#pragma once
// The argument contract lesson: read a constructor call left to right, name each value by the slot it
// fills, and flag the usual confusions with a sentence saying what probably happened -- d_in and d_out
// swapped against the input's width, dropout and num_heads swapped, a context_length shorter than the
// input, and a call written for another popular slot order (d_in, d_out, num_heads, ...). Works from
// the call's syntax, so a call whose values do not bind is still read and explained.
#include "call/call_parser.h"
#include "call/config.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// What is known about the input the module will see; each part optional.
struct ContractInput {
    std::optional<std::int64_t> d_in;       // the input's embedding width (x.shape[-1])
    std::optional<std::int64_t> num_tokens; // x.shape[-2]
};

struct ContractValue {
    std::string slot; // the slot this value fills in the book's order; empty when none (extra value)
    std::string text; // the value as written
    LiteralKind kind = LiteralKind::Other;
    bool keyword = false;  // written as slot=value
    std::size_t begin = 0; // byte offsets of the value in the call text
    std::size_t end = 0;
};

// The usual confusions. Names are stable text: `contract --json` prints them and the GUI names its cards after them.
enum class ContractFindingCode {
    DInDOutSwapped,
    DInMismatch,
    DropoutNumHeadsSwapped,
    OtherSlotOrder,
    ContextTooShort,
    ExtraValue // one positional value too many: without it the call works
};
inline constexpr std::array<ContractFindingCode, 6> kContractFindingCodes = {
    ContractFindingCode::DInDOutSwapped,         ContractFindingCode::DInMismatch,
    ContractFindingCode::DropoutNumHeadsSwapped, ContractFindingCode::OtherSlotOrder,
    ContractFindingCode::ContextTooShort,        ContractFindingCode::ExtraValue};
// "d_in-d_out-swapped", "d_in-mismatch", "dropout-num_heads-swapped", "other-slot-order", "context-too-short",
// "extra-value"
std::string contract_finding_name(ContractFindingCode code);

struct ContractFinding {
    ContractFindingCode code = ContractFindingCode::DInDOutSwapped;
    std::vector<std::string> slots; // the slots concerned, for highlighting
    std::string message;            // what probably happened and what to write instead
    std::string suggested_call;     // the call rewritten for the book's slots; empty when there is none
};

struct ContractReport {
    std::string call;                    // the text as given
    std::string class_name;              // as written, even when unknown
    std::vector<ContractValue> values;   // left to right
    std::optional<Config> config;        // the call bound in the book's order, when it binds
    std::optional<CallError> error;      // why it does not parse or bind, when it does not
    std::vector<Diagnostic> diagnostics; // validate() of the bound config with the input, when it binds
    std::vector<ContractFinding> findings;
};

ContractReport check_contract(std::string_view call, const ContractInput& input = {});
// Every slot some finding of the report concerns, each once, in order of first mention.
std::vector<std::string> flagged_slots(const ContractReport& report);

} // namespace attnlab
