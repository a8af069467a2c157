#pragma once
// A learner's module as resources/pytorch/attention_lab_probe.py recorded it: its state_dict, the input,
// the attributes it stores, and every tensor its forward assigned, in execution order, with the line
// that assigned it. The probe's module docstring is the file format; this reads version 1 of it.
#include "io/weights.h"
#include "tensor/error.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

inline constexpr int kRecordingVersion = 1;
// A classroom module's recording is kilobytes; GPT-2 small at 1,024 tokens is well under this.
inline constexpr std::uint64_t kRecordingMaxBytes = 1024ull * 1024 * 1024;
inline constexpr std::uint64_t kRecordingMaxTensorBytes = 256ull * 1024 * 1024;

// A number or bool the module stores (d_out, num_heads, qkv_bias, dropout, ...).
struct RecordedAttribute {
    double value = 0;
    bool integer = false; // a Python int (not a bool)
};

struct RecordedEvent {
    int index = 0;
    std::string kind;     // "assign" | "return" | "error"
    std::string scope;    // "" for the module itself, "heads.0" for a submodule
    int line = -1;        // first line of the statement in the scope's file; -1 when unknown
    std::string source;   // the statement's text
    std::string variable; // "queries", "qkv[1]", "return"; empty for errors
    Shape shape;          // as recorded (for any tensor type)
    Shape strides;
    bool contiguous = true;
    std::string dtype;   // torch's name of the original type, "float32", "bool"
    Tensor value;        // defined only for floating-point tensors: the ones matching looks at
    std::string type;    // error: the exception type; a non-tensor return: its Python type
    std::string message; // error only
};

struct RecordedScope {
    std::string scope;
    std::string class_name;
    std::string file;
    int first_line = 1;
    std::string source; // the class's source text, first_line being its first line

    // The line of `source` (counted from 0) where `def forward` begins: what was recorded, where __init__
    // only sets up the weights; 0 when the source has none.
    int forward_offset() const;
};

struct Recording {
    std::string path;
    std::string class_name;
    std::string torch_version;
    std::map<std::string, RecordedAttribute> attributes;
    Tensor input;
    StateDict parameters;             // floating-point parameters by state_dict key ("W_query.weight")
    std::vector<std::string> buffers; // buffer keys ("mask"); never used as weights
    std::vector<RecordedScope> scopes;
    std::vector<RecordedEvent> events;
    std::optional<RecordedEvent> error; // the error event, when forward raised

    const RecordedScope* find_scope(const std::string& scope) const;
};

// Throws Error with one sentence for a file it cannot read: missing, truncated, not safetensors, a
// safetensors file that is no recording, a newer format version, a malformed recording, a tensor over the cap.
Recording read_recording(const std::string& path);
Recording parse_recording(const std::string& bytes, const std::string& path);

} // namespace attnlab
