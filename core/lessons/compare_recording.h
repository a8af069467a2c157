#pragma once
// Compare With My Code: the first canonical stage a learner's recorded module does not reach, by
// value, never by variable name. The rules are tests/reference/first_divergence.py's, exactly (its
// docstring states them; tests/data/student_modules/expected.json pins them): a stage is reached by a
// tensor holding its values in any shape (in its shape, or a contiguous tensor reshaped to it) or by
// any stage the book computes from it; the first stage not reached is the divergence, and it shows at
// the first tensor holding earlier numbers in its shape, else the first tensor after the last right
// one that no stage explains.
#include "lessons/recording.h"
#include "lessons/recording_reference.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

inline constexpr double kRecordingRtol = 1e-4;
inline constexpr double kRecordingAtol = 1e-5;

// The book's stage nearest to what the learner computed: same shape (smallest max |difference|) or,
// failing that, the diverging stage itself with its other shape.
struct NearestStage {
    std::string stage;
    Shape shape;
    std::optional<double> max_abs_diff; // set when the shapes agree
};

struct RecordingDivergence {
    std::string stage;    // canonical stage name, or "config"
    std::string kind;     // "values" | "shape" | "error" | "missing"
    int line = -1;        // line of the statement in the scope's file; -1 unknown
    std::string scope;    // "" (the module) or "heads.0"
    std::string variable; // empty for error and missing
    std::string source;   // the learner's statement at that line
    int event = -1;       // the event index it points at; -1 for missing
    Shape recorded_shape; // values/shape: the learner's tensor; missing: the returned tensor
    Shape book_shape;     // the book's shape of `stage` (empty for config)
    NearestStage nearest;
    std::string error;   // error: "RuntimeError: ..." as PyTorch raised it
    std::string relaid;  // the stage whose numbers the tensor holds laid out in the shape of `stage`, or empty
    std::string bug;     // a known injected bug (bugs.h) that gives exactly these values, or empty
    std::string symptom; // what differs in the learner's terms, when the values show it (divergence_symptom)
};

// Per canonical stage, where the recording reaches it (for the side-by-side view).
struct StageReach {
    std::string stage;
    Shape shape;
    int held_by = -1; // the first event holding its values, -1 none
    int reach = -1;   // held_by, or an earlier event reaching a stage computed from it
    int line = -1;    // the reaching event's line and variable, for the side-by-side view
    std::string scope;
    std::string variable;
};

struct RecordingComparison {
    std::string module; // the book's module the weights fit, "MultiHeadAttention"
    // "the book's", or "the lab's" for GroupedQueryAttention: chapter 3 has no such class, so the reference is
    // resources/pytorch/GroupedQueryAttention.py, written here in the book's style.
    std::string owner = "the book's";
    std::string recorded_class; // the learner's class name
    Config config;
    std::string problem;                 // why no book module takes these weights and input (stage "config")
    std::vector<StageReach> stages;      // in the book's order (empty with a problem)
    std::map<int, std::string> explains; // float event -> the stage (or "x", "keys.T") it holds, when any
    std::optional<RecordingDivergence> first;
};

// Matches a recording against the book's stages on its weights and input, then looks for a known bug.
RecordingComparison compare_recording(const Recording& rec, const BookReference& ref);
// read_recording + book_reference + compare_recording. Throws Error / NumHeadsNeeded as they do.
RecordingComparison compare_recording_file(const std::string& path, std::int64_t num_heads = 0);

// The known bug (bugs.h name) whose forward on the same weights and input produces what the learner's
// code produced at the divergence; empty when none does. Only MultiHeadAttention has injected bugs.
std::string matching_bug(const Recording& rec, const BookReference& ref, const RecordingDivergence& divergence);

// One sentence on what the values show in the learner's own terms -- rows of weights that no longer
// sum to 1, scores divided by the wrong width, the mask on the wrong cells -- or empty.
std::string divergence_symptom(const Recording& rec, const BookReference& ref, const RecordingDivergence& divergence);

// One sentence on how the learner's code differs there (the symptom when there is one), e.g. "attn_weights: the values
// differ from the book's (max |difference| 0.31) at the same shape (2, 2, 6, 6)."
std::string describe_difference(const RecordingDivergence& divergence);

// Values comparison of first_divergence.py: same shape, |a - e| <= atol + rtol |e| where e is finite,
// exact (NaN matching NaN) where it is not; in double.
bool values_close(const Values& a, const Values& e);
// max |a - e| over equal shapes: 0 where both are the same non-finite value, infinity where only one is.
double max_abs_difference(const Values& a, const Values& e);

} // namespace attnlab
