// Naming the learner's mistake when the lab already teaches it: each injected bug of bugs.h runs on the
// recording's weights and input, and the one that produces exactly what the learner's code produced at
// the divergence (the same values, the same failing stage, or the same returned tensor) is named.
#include "lessons/compare_recording.h"

#include "lessons/bugs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab {

namespace {

// The bug run's stages from `stage` on: where the learner's first wrong tensor may sit (it can be a
// later stage than the one that diverges, e.g. attn_scores after a skipped transpose).
std::vector<const Stage*> stages_from(const BugTrace& run, const std::string& stage)
{
    std::vector<const Stage*> out;
    for (const Stage& s : run.stages)
        if (s.name == stage || !out.empty())
            out.push_back(&s);
    return out;
}

const Tensor* event_value(const Recording& rec, int index)
{
    return index >= 0 && index < static_cast<int>(rec.events.size()) && rec.events[index].value.defined()
               ? &rec.events[index].value
               : nullptr;
}

const Tensor* returned(const Recording& rec)
{
    for (const RecordedEvent& e : rec.events)
        if (e.kind == "return" && e.scope.empty() && e.value.defined())
            return &e.value;
    return nullptr;
}

// What the learner's forward returned is what the bug's forward returns (its last stage), or neither
// returned anything to compare.
bool same_result(const Recording& rec, const BugTrace& run)
{
    const Tensor* mine = returned(rec);
    if (!mine)
        return true; // it raised: the error's stage and words decide
    if (run.failure || run.stages.empty())
        return false;
    return values_close(Values::of(*mine), Values::of(run.stages.back().tensor));
}

} // namespace

std::string matching_bug(const Recording& rec, const BookReference& ref, const RecordingDivergence& d)
{
    if (ref.kind != ModuleKind::MultiHeadAttention)
        return {};
    const Config& c = ref.config;
    if (d.stage == "config") // the slots swapped: weights (d_in, d_out)-wide where the input says otherwise
        return ref.x.dim() == 3 && c.d_in != c.d_out && ref.x.size(-1) == c.d_out ? bug_info(Bug::SwapDInDOut).name
                                                                                  : std::string{};
    const Tensor* observed = nullptr;
    if (d.kind == "values" || d.kind == "shape")
        observed = event_value(rec, d.event);
    if (d.kind == "missing")
        for (const RecordedEvent& e : rec.events)
            if (e.kind == "return" && e.scope.empty() && e.value.defined())
                observed = &e.value;
    if (!observed && d.kind != "error")
        return {};
    const std::optional<Values> seen = observed ? std::optional<Values>(Values::of(*observed)) : std::nullopt;
    for (const BugInfo& info : bug_catalogue()) {
        if (info.bug == Bug::SwapDInDOut)
            continue;
        BugTrace run;
        try {
            run = run_with_bug(c, ref.weights, ref.x, info.bug);
        } catch (const Error&) {
            continue;
        }
        if (d.kind == "error") { // the same stage failing with PyTorch's same words
            if (run.failure && run.failure->stage == d.stage && rec.error && run.failure->message == rec.error->message)
                return info.name;
            continue;
        }
        // The bug's tensor at the divergence is not enough: a module can pass through it and go on to
        // something else (softmax first, then the future zeroed), so what it returns must be the bug's too.
        if (!same_result(rec, run))
            continue;
        for (const Stage* s : stages_from(run, d.stage))
            if (values_close(*seen, Values::of(s->tensor)))
                return info.name;
    }
    return {};
}

std::string describe_difference(const RecordingDivergence& d)
{
    if (!d.symptom.empty())
        return d.symptom;
    const std::string where = d.variable.empty() ? std::string("your code") : "your " + d.variable;
    if (d.kind == "error" && stage_facts(d.stage).layout == LayoutOp::RepeatKv)
        return "your forward raised " + d.error + " before computing " + d.stage +
               ": there are fewer key/value heads than query heads, so each must first be repeated for its group "
               "(repeat_interleave(group_size, dim=1)), or be a single head that broadcasts.";
    if (d.kind == "error")
        return "your forward raised " + d.error + (d.stage == "config" ? "" : " before computing " + d.stage) + ".";
    if (d.stage == "config")
        return "the recorded weights and input fit none of the book's modules, so no stage can be compared; " + where +
               " is the first tensor computed.";
    if (d.kind == "missing")
        return "your forward returned without computing " + d.stage + "; everything it computed matches the book.";
    if (d.kind == "shape")
        return where + " has shape " + shape_to_string(d.recorded_shape) + " where the book's " + d.stage + " is " +
               shape_to_string(d.book_shape) + ".";
    std::string text = where + " has the shape of the book's " + d.nearest.stage + " " +
                       shape_to_string(d.recorded_shape) + " but other values";
    if (d.nearest.max_abs_diff) {
        char number[32];
        std::snprintf(number, sizeof number, "%.4g", *d.nearest.max_abs_diff);
        text += std::string(" (max |difference| ") + (std::isinf(*d.nearest.max_abs_diff) ? "inf" : number) + ")";
    }
    return text + (d.nearest.stage == d.stage ? "." : ", so " + d.stage + " is never right.");
}

} // namespace attnlab
