#include "lessons/contract_call.h"

#include <algorithm>

namespace attnlab {

namespace {

// The findings that move values between slots; the others (a d_in that is not the input's width, a
// context_length shorter than the input) are validate()'s own diagnostics with the same fix.
const ContractFinding* likely_slot_mixup(const ContractReport& report)
{
    for (const ContractFinding& f : report.findings)
        if ((f.code == ContractFindingCode::DropoutNumHeadsSwapped || f.code == ContractFindingCode::OtherSlotOrder ||
             f.code == ContractFindingCode::DInDOutSwapped || f.code == ContractFindingCode::ExtraValue) &&
            !f.suggested_call.empty())
            return &f;
    return nullptr;
}

bool still_there(const Diagnostic& d, const std::vector<Diagnostic>& after)
{
    return std::any_of(after.begin(), after.end(),
                       [&](const Diagnostic& a) { return a.code == d.code && a.slot == d.slot; });
}

} // namespace

CallReading read_call(std::string_view text, std::optional<InputShape> input)
{
    CallReading out;
    ContractInput contract_input;
    if (input)
        contract_input.num_tokens = input->num_tokens;
    out.contract = check_contract(text, contract_input);
    out.config = out.contract.config;
    out.error = out.contract.error;
    const std::vector<Diagnostic> own = out.config ? validate(*out.config, input) : std::vector<Diagnostic>{};
    // A call Python cannot even read (a positional value after a keyword, say) has no slots to mix up.
    const bool readable = !parse_call_syntax(text).error;
    const ContractFinding* swap = readable ? likely_slot_mixup(out.contract) : nullptr;
    if (!swap) {
        if (out.error)
            out.diagnostics.push_back(
                {DiagnosticCode::CallSyntax,
                 Severity::Error,
                 std::nullopt,
                 "column " + std::to_string(out.error->column + 1) + " of the call: " + out.error->message,
                 {},
                 {}});
        out.diagnostics.insert(out.diagnostics.end(), own.begin(), own.end());
        return out;
    }
    // One value too many is a mix-up of slots too: every value after it sits one slot along.
    out.diagnostics.push_back({DiagnosticCode::SlotsSwapped,
                               Severity::Error,
                               slot_from_name(swap->slots.front()),
                               swap->message,
                               {},
                               swap->suggested_call});
    // The binder's advice ("write 0") would fix the wrong slot; "at most 6 positional arguments" is true.
    if (out.error && swap->code != ContractFindingCode::ExtraValue)
        out.error->message = swap->message;
    const ParsedCall fixed = parse_call(swap->suggested_call);
    const std::vector<Diagnostic> after = fixed.config ? validate(*fixed.config, input) : std::vector<Diagnostic>{};
    for (const Diagnostic& d : own)
        if (d.severity != Severity::Error || still_there(d, after))
            out.diagnostics.push_back(d);
    return out;
}

} // namespace attnlab
