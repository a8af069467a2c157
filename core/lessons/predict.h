#pragma once
// Predict, then reveal: the question a stage poses before it is shown (its shape, one answer per axis; for
// a layout step whether the result is contiguous and shares storage with the stage it re-lays out; for a
// causal mask which positions it hides), made from the trace's own stages, and the check of an answer
// axis by axis, with what a wrong axis would have needed in the config's numbers.
#include "forward/trace.h"
#include "gpt/head_measures.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnlab {

struct AxisQuestion {
    Axis axis = Axis::b;
    std::string name;        // "head_dim"
    std::int64_t size = 0;   // 64
    std::string explanation; // "head_dim = d_out / num_heads = 768 / 12 = 64"
};

struct StageQuestion {
    std::string stage;
    std::string prompt; // "What shape does queries.view have?"
    std::vector<AxisQuestion> axes;
    // Layout steps (view, transpose, contiguous): also asked.
    bool asks_layout = false;
    std::string layout_of; // the stage it re-lays out
    bool contiguous = true;
    bool shares_storage = false;
    // Causal masks (attn_scores.masked) on inputs of up to 8 tokens: which (query, key) positions of the
    // num_tokens square are hidden.
    bool asks_mask = false;
    std::int64_t tokens = 0;
    // The (query, key) positions the stage itself hides (-inf in its first query x key matrix): the future, and
    // with a sliding window also the keys window_size or more tokens back. Row by row, key by key.
    std::vector<std::pair<std::int64_t, std::int64_t>> hidden;
    std::int64_t window = 0;          // the window that hides the old keys; 0 without one
    std::vector<std::string> offered; // the axis names an answer may use instead of a number
    // What the question is answered from, where the settings are out of view (a projector, a phone): the
    // config's sizes and the input's, "d_in = 768, d_out = 768, num_heads = 12 · input: batch = 1, num_tokens = 16",
    // and the line of the book's forward that makes the stage ("queries = self.W_query(x)"; x: the forward's
    // own line); empty where the source has none.
    std::string given;
    std::string code;
};

// One answer per axis: a whole number or one of the offered axis names ("head_dim").
struct StageAnswer {
    std::vector<std::string> axes;
    std::optional<bool> contiguous;
    std::optional<bool> shares_storage;
    std::vector<std::pair<std::int64_t, std::int64_t>> hidden; // (query, key) positions marked as masked
};

struct Verdict {
    bool right = false;
    std::string says; // one sentence: why it is right, or what it would have needed
};

struct PredictionCheck {
    std::vector<Verdict> axes; // one per asked axis (a missing answer is wrong)
    std::optional<Verdict> axis_count;
    std::optional<Verdict> contiguous, shares_storage, mask;
    bool all_right() const;
};

// Trained heads that differ, asked at the weights stage (predict_heads.cpp): which head looks at the
// previous token? Picked, then revealed with each head's measured share of its weight there.
struct HeadQuestion {
    std::string stage;
    std::string prompt;           // "Which head looks at the previous token?"
    std::vector<double> previous; // per head: mean weight a token puts on the token just before it
    int best = 0;
    double uniform = 0; // what a head spreading its weight evenly over the past would put there
};

// Trained on a short text, no head of the shipped models puts much weight on the previous token (0.06 to
// 0.11 over a sentence of 57 tokens); what tells them apart is how much more one puts there than another.
inline constexpr double kHeadsDiffer = 1.2; // the best share over the smallest: less, and no head stands out
inline constexpr double kHeadTie = 0.95;    // a pick with this fraction of the best share is right too

// Asked only at an attn_weights stage with one measure per head (Session::headMeasures: a trained model's
// text) and heads that differ (kHeadsDiffer); nullopt otherwise.
std::optional<HeadQuestion> head_question_for(const Trace& trace, std::string_view stage,
                                              const std::vector<HeadMeasures>& measures);
// Throws Error for a head the question does not have.
Verdict check_head_pick(const HeadQuestion& question, int head);

// Throws Error when the trace has no such stage.
StageQuestion question_for(const Trace& trace, std::string_view stage);
PredictionCheck check_prediction(const Trace& trace, const StageQuestion& question, const StageAnswer& answer);

} // namespace attnlab
