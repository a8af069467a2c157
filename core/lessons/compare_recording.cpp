// The matcher of tests/reference/first_divergence.py, rule by rule (the numbers in comments are its steps).
#include "lessons/compare_recording.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>

namespace attnlab {

namespace {

struct Matcher {
    const Recording& rec;
    const BookReference& ref;
    std::vector<std::pair<const RecordedEvent*, Values>> events; // floating-point events only, in order

    bool close_data(const std::vector<float>& a, const Values& e) const { return values_close(Values{e.shape, a}, e); }
    // 2. The event holds a stage when it equals one of its forms in its shape, or -- when its storage
    // holds its numbers row-major (contiguous) -- reshaped to it: the stage's values in any shape.
    bool holds(const RecordedEvent& e, const Values& v, const ReferenceStage& s) const
    {
        if (s.forms.empty())
            return false;
        if (v.shape != s.shape && (!e.contiguous || v.data.size() != s.forms.front().data.size()))
            return false;
        return std::any_of(s.forms.begin(), s.forms.end(), [&](const Values& f) { return close_data(v.data, f); });
    }
    bool extra(const Values& v) const
    {
        return std::any_of(ref.extras.begin(), ref.extras.end(),
                           [&](const auto& x) { return values_close(v, x.second); });
    }
    std::string explanation(const RecordedEvent& e, const Values& v) const
    {
        for (const ReferenceStage& s : ref.stages)
            if (holds(e, v, s))
                return s.name;
        for (const auto& [name, x] : ref.extras)
            if (values_close(v, x))
                return name;
        return {};
    }
    // 5. Relaid: the numbers of stages, none in its own shape, in the shape of s* or its layout
    // successors (`shapes`) -- a view where the book transposes. Returns the stage it holds, preferring
    // the one just before s* in its layout chain (what the missing step starts from), or empty.
    std::string relaid(const RecordedEvent& e, const Values& v, const std::set<Shape>& shapes,
                       const std::string& before) const
    {
        if (!shapes.count(v.shape) || extra(v))
            return {};
        std::string held;
        for (const ReferenceStage& s : ref.stages) {
            if (!holds(e, v, s))
                continue;
            if (s.shape == v.shape)
                return {};
            if (held.empty() || s.name == before)
                held = s.name;
        }
        return held;
    }
};

NearestStage nearest_to(const Values& v, const BookReference& ref, const std::string& stage)
{
    // The diverging stage itself, unless a stage of the same shape is closer: weights masked after the
    // softmax are nearer the book's weights than the masked scores, where any -inf is infinitely far.
    const ReferenceStage* target = ref.find(stage);
    NearestStage best{stage, target ? target->shape : Shape{}, std::nullopt};
    if (target && target->value && target->shape == v.shape)
        best = {stage, v.shape, max_abs_difference(v, *target->value)};
    for (const ReferenceStage& s : ref.stages) {
        if (!s.value || s.shape != v.shape)
            continue;
        const double d = max_abs_difference(v, *s.value);
        if (!best.max_abs_diff || d < *best.max_abs_diff)
            best = {s.name, s.shape, d};
    }
    return best;
}

} // namespace

bool values_close(const Values& a, const Values& e)
{
    if (a.shape != e.shape || a.data.size() != e.data.size())
        return false;
    for (std::size_t i = 0; i < a.data.size(); ++i) {
        const double x = a.data[i], y = e.data[i];
        if (std::isfinite(y) ? !(std::isfinite(x) && std::abs(x - y) <= kRecordingAtol + kRecordingRtol * std::abs(y))
                             : !(x == y || (std::isnan(x) && std::isnan(y))))
            return false;
    }
    return true;
}

double max_abs_difference(const Values& a, const Values& e)
{
    double worst = 0;
    for (std::size_t i = 0; i < std::min(a.data.size(), e.data.size()); ++i) {
        const double x = a.data[i], y = e.data[i];
        if (x == y || (std::isnan(x) && std::isnan(y)))
            continue;
        worst = std::max(worst, std::isfinite(x) && std::isfinite(y) ? std::abs(x - y)
                                                                     : std::numeric_limits<double>::infinity());
    }
    return worst;
}

RecordingComparison compare_recording(const Recording& rec, const BookReference& ref)
{
    RecordingComparison out;
    out.module = module_class_name(ref.kind);
    out.owner = ref.kind == ModuleKind::GroupedQueryAttention ? "the lab's" : "the book's";
    out.recorded_class = rec.class_name;
    out.config = ref.config;
    out.problem = ref.problem;
    Matcher m{rec, ref, {}};
    for (const RecordedEvent& e : rec.events)
        if (e.value.defined())
            m.events.emplace_back(&e, Values::of(e.value));

    std::string stage = "config";
    int anchor = -1;
    std::set<Shape> shapes;
    std::string before; // the stage before s* in its layout chain
    const bool known = ref.problem.empty();
    if (known) {
        std::map<std::string, int> reach; // 3. the first event holding each stage ...
        for (const ReferenceStage& s : ref.stages) {
            StageReach row;
            row.stage = s.name;
            row.shape = s.shape;
            for (const auto& [e, v] : m.events)
                if (m.holds(*e, v, s)) {
                    row.held_by = e->index;
                    break;
                }
            reach[s.name] = row.held_by;
            out.stages.push_back(row);
        }
        for (auto s = ref.stages.rbegin(); s != ref.stages.rend(); ++s) // ... or a stage computed from it
            for (const std::string& t : s->feeds)
                if (reach.count(t) && reach[t] >= 0 && (reach[s->name] < 0 || reach[t] < reach[s->name]))
                    reach[s->name] = reach[t];
        const StageReach* missing = nullptr;
        for (StageReach& row : out.stages) {
            row.reach = reach[row.stage];
            if (row.reach >= 0) {
                const RecordedEvent& e = rec.events[static_cast<std::size_t>(row.reach)];
                row.line = e.line;
                row.scope = e.scope;
                row.variable = e.variable;
            }
            if (!missing && row.reach < 0)
                missing = &row;
            else if (!missing)
                anchor = std::max(anchor, row.reach); // 5. the anchor: the last reach before s*
        }
        for (const auto& [e, v] : m.events)
            if (std::string what = m.explanation(*e, v); !what.empty())
                out.explains[e->index] = what;
        if (!missing)
            return out;
        stage = missing->stage;
        shapes.insert(missing->shape);
        for (const auto& chain : ref.chains) // 6. the layout successors of s* keep its kind "values"
            if (auto it = std::find(chain.begin(), chain.end(), stage); it != chain.end()) {
                if (it != chain.begin())
                    before = *std::prev(it);
                for (++it; it != chain.end(); ++it)
                    shapes.insert(ref.find(*it)->shape);
            }
    }

    RecordingDivergence d;
    d.stage = stage;
    if (const ReferenceStage* s = ref.find(stage))
        d.book_shape = s->shape;
    const std::pair<const RecordedEvent*, Values>* w = nullptr;
    for (const auto& ev : m.events) // 5. W: the first relaid event, wherever it is, ...
        if (known && !(d.relaid = m.relaid(*ev.first, ev.second, shapes, before)).empty()) {
            w = &ev;
            break;
        }
    for (const auto& ev : m.events) // ... or the first unexplained float event after the anchor
        if (!w && ev.first->index > anchor && !(known && out.explains.count(ev.first->index)))
            w = &ev;
    if (w) {
        const auto& [e, v] = *w;
        d.kind = shapes.count(v.shape) ? "values" : "shape";
        d.line = e->line;
        d.scope = e->scope;
        d.variable = e->variable;
        d.source = e->source;
        d.event = e->index;
        d.recorded_shape = v.shape;
        d.nearest = nearest_to(v, ref, stage);
    }
    if (d.kind.empty() && rec.error) {
        d.kind = "error";
        d.line = rec.error->line;
        d.scope = rec.error->scope;
        d.source = rec.error->source;
        d.event = rec.error->index;
        d.error = rec.error->type + ": " + rec.error->message;
        d.nearest = {stage, d.book_shape, std::nullopt};
    } else if (d.kind.empty()) {
        d.kind = "missing";
        d.nearest = {stage, d.book_shape, std::nullopt};
        for (const RecordedEvent& e : rec.events)
            if (e.kind == "return" && e.scope.empty()) {
                d.line = e.line;
                d.source = e.source;
                d.recorded_shape = e.shape;
                if (e.value.defined() && out.explains.count(e.index))
                    d.nearest = nearest_to(Values::of(e.value), ref, out.explains[e.index]);
            }
    }
    d.bug = matching_bug(rec, ref, d);
    if (d.bug.empty() || !d.relaid.empty()) // a relaid tensor is said in the learner's terms, bug or not
        d.symptom = divergence_symptom(rec, ref, d);
    out.first = d;
    return out;
}

RecordingComparison compare_recording_file(const std::string& path, std::int64_t num_heads)
{
    const Recording rec = read_recording(path);
    return compare_recording(rec, book_reference(rec, num_heads));
}

} // namespace attnlab
