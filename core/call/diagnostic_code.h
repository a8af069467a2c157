#pragma once
// What a diagnostic is about, as a value the GUI, CLI and tests can switch on. The names are stable
// text: `validate --json` prints them and the diagnostics panel names its cards after them.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

enum class DiagnosticCode {
    NonPositive,         // a size slot <= 0
    NonPositiveInput,    // batch or num_tokens <= 0
    DropoutRange,        // dropout outside [0, 1]
    HeadSplit,           // d_out not divisible by num_heads
    TokensExceedContext, // more tokens than the causal mask covers
    HeadDimSmall,        // note: tiny heads
    DInNeDOut,           // note: d_in != d_out is allowed
    WrapperWidth,        // note: the wrapper's output is num_heads * d_out wide
    DropoutEval,         // note: dropout only acts in training mode
    CallSyntax,          // the call line does not parse or bind
    MemoryBudget,        // the trace would exceed the memory budget
    Cancelled,           // the computation was cancelled
    Engine,              // the engine refused the settings
    TextEmpty,           // the typed text has no tokens
    TextUnusable,        // the text is not UTF-8 or too long for the Text input
    LayerMissing,        // the chosen layer is not one of the model's
    ModelMissing,        // the trained model cannot be read
    TrainedWeights,      // the trained weights do not fit the call
    SlotsSwapped,        // values of the call look swapped or written for another slot order
    KvGroupSplit,        // num_kv_groups does not divide num_heads
    WindowRange,         // a sliding window of no tokens, or wider than the causal mask
};

inline constexpr std::array kDiagnosticCodes = {
    DiagnosticCode::NonPositive,  DiagnosticCode::NonPositiveInput,    DiagnosticCode::DropoutRange,
    DiagnosticCode::HeadSplit,    DiagnosticCode::TokensExceedContext, DiagnosticCode::HeadDimSmall,
    DiagnosticCode::DInNeDOut,    DiagnosticCode::WrapperWidth,        DiagnosticCode::DropoutEval,
    DiagnosticCode::CallSyntax,   DiagnosticCode::MemoryBudget,        DiagnosticCode::Cancelled,
    DiagnosticCode::Engine,       DiagnosticCode::TextEmpty,           DiagnosticCode::TextUnusable,
    DiagnosticCode::LayerMissing, DiagnosticCode::ModelMissing,        DiagnosticCode::TrainedWeights,
    DiagnosticCode::SlotsSwapped, DiagnosticCode::KvGroupSplit,        DiagnosticCode::WindowRange,
};

std::string diagnostic_code_name(DiagnosticCode code); // "head-split", "non-positive", ...
std::optional<DiagnosticCode> diagnostic_code_from_name(std::string_view name);

} // namespace attnlab
