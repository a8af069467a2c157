// Stage-by-stage comparison of the book's run against a buggy one.
#include "lessons/divergence.h"

#include "tensor/error.h"
#include "forward/stage_names.h"
#include "forward/stage_table.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace attnlab {

namespace {

std::string number(float v)
{
    std::ostringstream out;
    out.precision(6);
    out << v;
    return out.str();
}

// Logical index of flat position i in a row-major tensor of `shape`, as "(0, 1, 2)".
std::string index_text(const Shape& shape, std::int64_t i)
{
    Shape index(shape.size(), 0);
    for (std::size_t d = shape.size(); d-- > 0;) {
        index[d] = i % shape[d];
        i /= shape[d];
    }
    return shape_to_string(index);
}

// Same when both are the same non-finite value (NaN counts as equal to NaN) or both finite and close.
bool close(float expected, float observed)
{
    if (!std::isfinite(expected) || !std::isfinite(observed))
        return (std::isnan(expected) && std::isnan(observed)) || expected == observed;
    return std::fabs(static_cast<double>(observed) - expected) <=
           kDivergenceAtol + kDivergenceRtol * std::fabs(expected);
}

// The values check of one stage: the worst entry (non-finite mismatches first) or nothing.
std::optional<std::string> values_differ(const std::string& name, const Tensor& expected, const Tensor& observed)
{
    const std::vector<float> e = expected.to_vector(), o = observed.to_vector();
    std::int64_t worst = -1, count = 0;
    double worst_diff = -1.0;
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (close(e[i], o[i]))
            continue;
        ++count;
        const double diff = std::isfinite(e[i]) && std::isfinite(o[i]) ? std::fabs(double(o[i]) - e[i]) : INFINITY;
        if (diff > worst_diff) {
            worst_diff = diff;
            worst = static_cast<std::int64_t>(i);
        }
    }
    if (worst < 0)
        return std::nullopt;
    const auto w = static_cast<std::size_t>(worst);
    return name + " has the right shape but " + std::to_string(count) + " of its " + std::to_string(e.size()) +
           " values differ; the largest difference is at " + index_text(expected.shape(), worst) + ": expected " +
           number(e[w]) + ", observed " + number(o[w]) + ".";
}

} // namespace

const std::vector<std::string>& divergence_stage_order()
{
    // The table's rows, with the nine projection stages in the order the book's forward computes them
    // (keys first): the order trace_forward records and the stepper steps through.
    static const std::vector<std::string> order = [] {
        std::vector<std::string> projections;
        for (const auto& role : stage::projected_order)
            projections.emplace_back(role.computed);
        for (const auto& role : stage::split_order)
            projections.emplace_back(role.split);
        for (const auto& role : stage::heads_first_order)
            projections.emplace_back(role.heads_first);
        std::vector<std::string> names;
        std::size_t next = 0;
        for (const auto& row : stage_table()) {
            if (row.integrated.empty() || row.training_only)
                continue;
            const bool projection =
                std::find(projections.begin(), projections.end(), row.base_name) != projections.end();
            names.emplace_back(projection ? projections[next++] : std::string(row.base_name));
        }
        return names;
    }();
    return order;
}

std::string_view status_name(DivergenceStatus status)
{
    switch (status) {
    case DivergenceStatus::Same: return "same";
    case DivergenceStatus::Shape: return "shape";
    case DivergenceStatus::Values: return "values";
    case DivergenceStatus::Error: return "error";
    case DivergenceStatus::NotReached: return "not-reached";
    }
    return "?";
}

std::vector<StageComparison> compare_stages(const BugTrace& expected, const BugTrace& observed)
{
    if (expected.failure)
        throw Error("the book's run itself stopped at " + expected.failure->stage + ": " + expected.failure->message);
    std::vector<StageComparison> rows;
    bool stopped = false;
    if (observed.failure && observed.failure->stage == "config") {
        rows.push_back({"config", DivergenceStatus::Error, {}, {}, observed.failure->message});
        stopped = true;
    }
    for (const auto& name : divergence_stage_order()) {
        const Stage* e = expected.find(name);
        if (!e)
            continue; // not a stage of this module
        const Shape& es = e->tensor.shape();
        const Stage* o = observed.find(name);
        if (stopped || !o) {
            const bool here = !stopped && observed.failure && observed.failure->stage == name;
            rows.push_back({name,
                            stopped ? DivergenceStatus::NotReached : DivergenceStatus::Error,
                            es,
                            {},
                            stopped ? ""
                            : here  ? observed.failure->message
                                    : "the buggy run has no stage " + name + "."});
            stopped = true;
            continue;
        }
        const Shape& os = o->tensor.shape();
        if (es != os)
            rows.push_back({name, DivergenceStatus::Shape, es, os,
                            name + " has shape " + shape_to_string(os) + " where the book's forward has " +
                                shape_to_string(es) + "."});
        else if (auto message = values_differ(name, e->tensor, o->tensor))
            rows.push_back({name, DivergenceStatus::Values, es, os, *message});
        else
            rows.push_back({name, DivergenceStatus::Same, es, os, {}});
    }
    return rows;
}

std::optional<FirstDivergence> first_divergence(const BugTrace& expected, const BugTrace& observed)
{
    for (const auto& row : compare_stages(expected, observed))
        if (row.status != DivergenceStatus::Same)
            return FirstDivergence{row.stage, row.status, row.expected_shape, row.observed_shape, row.message};
    return std::nullopt;
}

Diagnosis diagnose(const Config& config, const StateDict& weights, const Tensor& x, Bug bug)
{
    Diagnosis d;
    d.correct = run_with_bug(config, weights, x, Bug::None);
    d.buggy = run_with_bug(config, weights, x, bug);
    d.stages = compare_stages(d.correct, d.buggy);
    for (const auto& row : d.stages)
        if (!d.first && row.status != DivergenceStatus::Same)
            d.first = FirstDivergence{row.stage, row.status, row.expected_shape, row.observed_shape, row.message};
    if (!d.first) {
        d.why_none = why_harmless(bug, config, x.size(0), x.size(1));
        if (d.why_none.empty())
            d.why_none = "every stage of the buggy run matches the book's within rtol 1e-4 and atol 1e-5 for these "
                         "settings, so the mistake stays hidden here; try more tokens or more heads.";
    }
    return d;
}

} // namespace attnlab
