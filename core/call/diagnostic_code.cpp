#include "call/diagnostic_code.h"

namespace attnlab {

std::string diagnostic_code_name(DiagnosticCode code)
{
    switch (code) {
    case DiagnosticCode::NonPositive: return "non-positive";
    case DiagnosticCode::NonPositiveInput: return "non-positive-input";
    case DiagnosticCode::DropoutRange: return "dropout-range";
    case DiagnosticCode::HeadSplit: return "head-split";
    case DiagnosticCode::TokensExceedContext: return "tokens-exceed-context";
    case DiagnosticCode::HeadDimSmall: return "head-dim-small";
    case DiagnosticCode::DInNeDOut: return "d-in-ne-d-out";
    case DiagnosticCode::WrapperWidth: return "wrapper-width";
    case DiagnosticCode::DropoutEval: return "dropout-eval";
    case DiagnosticCode::CallSyntax: return "call-syntax";
    case DiagnosticCode::MemoryBudget: return "memory-budget";
    case DiagnosticCode::Cancelled: return "cancelled";
    case DiagnosticCode::Engine: return "engine";
    case DiagnosticCode::TextEmpty: return "text-empty";
    case DiagnosticCode::TextUnusable: return "text-unusable";
    case DiagnosticCode::LayerMissing: return "layer-missing";
    case DiagnosticCode::ModelMissing: return "model-missing";
    case DiagnosticCode::TrainedWeights: return "trained-weights";
    case DiagnosticCode::SlotsSwapped: return "slots-swapped";
    case DiagnosticCode::KvGroupSplit: return "kv-group-split";
    case DiagnosticCode::WindowRange: return "window-range";
    }
    return "unknown";
}

std::optional<DiagnosticCode> diagnostic_code_from_name(std::string_view name)
{
    for (DiagnosticCode code : kDiagnosticCodes)
        if (name == diagnostic_code_name(code))
            return code;
    return std::nullopt;
}

} // namespace attnlab
