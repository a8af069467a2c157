// `follow`: one element of one stage, every stage where the same number lives (with the offset
// arithmetic) and what it was computed from, recomputed from those sources alone.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "call/call_parser.h"
#include "forward/follow.h"
#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace cli {

using attnlab::Combine;
using attnlab::ElementFollow;
using attnlab::Error;
using attnlab::Index;
using attnlab::Placement;
using json = nlohmann::json;

namespace {

Index parse_index(const std::string& text)
{
    Index index;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ','))
        index.push_back(parse_integer("index", part, 0, std::int64_t{1} << 40));
    if (index.empty() || (!text.empty() && text.back() == ','))
        throw Error("--index takes the element's numbers separated by commas, like 0,1,2,0, not '" + text + "'.");
    return index;
}

const char* placement_name(Placement p)
{
    return p == Placement::Itself ? "itself" : p == Placement::SameStorage ? "same storage" : "copy";
}

const char* combine_name(Combine c)
{
    switch (c) {
    case Combine::Input: return "input";
    case Combine::SameNumber: return "same number";
    case Combine::Linear: return "linear";
    case Combine::Dot: return "dot";
    case Combine::Mask: return "mask";
    case Combine::Softmax: return "softmax";
    case Combine::Dropout: return "dropout";
    }
    return "";
}

// One computation (or layout step) as JSON: how it combines, in words, and its operands with their values.
json sources_json(const attnlab::ElementSources& src, const attnlab::Trace& trace, const attnlab::StateDict& weights)
{
    json operands = json::array();
    for (const auto& op : src.operands) {
        json values = json::array();
        for (const Index& i : op.indices)
            values.push_back(attnlab::operand_value(op, i, trace, weights));
        operands.push_back(
            {{"tensor", op.tensor}, {"parameter", op.parameter}, {"indices", op.indices}, {"values", values}});
    }
    json out{{"combine", combine_name(src.combine)}, {"explanation", src.explanation}, {"operands", operands}};
    if (src.combine == Combine::Dot || src.combine == Combine::Softmax || src.combine == Combine::Dropout)
        out["scale"] = src.scale;
    if (src.combine == Combine::Softmax)
        out["position"] = src.position;
    if (src.combine == Combine::Mask)
        out["masked_out"] = src.masked_out;
    return out;
}

// The operands' first few elements with their values, one per line.
void print_operands(const attnlab::ElementSources& src, const attnlab::Trace& trace, const attnlab::StateDict& weights)
{
    for (const auto& op : src.operands) {
        const std::size_t shown = std::min<std::size_t>(op.indices.size(), 6);
        for (std::size_t k = 0; k < shown; ++k)
            std::printf("  %s %s = %.6g\n", op.tensor.c_str(), attnlab::index_text(op.indices[k]).c_str(),
                        attnlab::operand_value(op, op.indices[k], trace, weights));
        if (op.indices.size() > shown)
            std::printf("  ... and %zu more of %s\n", op.indices.size() - shown, op.tensor.c_str());
    }
}

} // namespace

int cmd_follow(const std::vector<std::string>& argv)
{
    std::set<std::string> options = run_options();
    options.erase("dump");
    options.insert({"stage", "index"});
    Args a(argv, options, {"json", "train"});
    const std::string stage = a.required("stage");
    const Index index = parse_index(a.required("index"));
    const attnlab::Experiment e = attnlab::prepare(run_spec_from(a));
    const attnlab::Trace trace = attnlab::run(e);
    const ElementFollow f = attnlab::follow_element(trace, stage, index);
    const float again = attnlab::recompute_element(f, trace, e.weights);
    if (a.flag("json")) {
        json places = json::array();
        for (const auto& p : f.places)
            places.push_back({{"stage", p.stage},
                              {"index", p.index},
                              {"storage_offset", p.storage_offset},
                              {"strides", p.strides},
                              {"relation", placement_name(p.placement)}});
        json out{{"call", attnlab::canonical_call(trace.config)},
                 {"stage", f.stage},
                 {"index", f.index},
                 {"value", f.value},
                 {"places", places},
                 {"sources", sources_json(f.sources, trace, e.weights)},
                 {"recomputed", again}};
        if (!f.computed_at.empty())
            out["computed_at"] = {{"stage", f.computed_at},
                                  {"index", f.computed_index},
                                  {"sources", sources_json(f.computation, trace, e.weights)}};
        std::cout << json_text(out) << "\n";
        return 0;
    }
    std::printf("%s %s = %.6g in %s\n\n", f.stage.c_str(), attnlab::index_text(f.index).c_str(), f.value,
                attnlab::canonical_call(trace.config).c_str());
    std::printf("Where this number lives (storage offset = tensor offset + Σ index × stride):\n");
    for (const auto& p : f.places)
        std::printf("  %-22s %-16s %-14s offset %s\n", p.stage.c_str(), attnlab::index_text(p.index).c_str(),
                    placement_name(p.placement), attnlab::offset_text(p).c_str());
    std::printf("\nComputed from: %s\n", f.sources.explanation.c_str());
    print_operands(f.sources, trace, e.weights);
    if (!f.computed_at.empty()) {
        // The layout steps only moved the number: say where it was computed, and from what.
        std::printf("\nThe number itself was computed at %s %s, as %s\n", f.computed_at.c_str(),
                    attnlab::index_text(f.computed_index).c_str(), f.computation.explanation.c_str());
        print_operands(f.computation, trace, e.weights);
    }
    std::printf("Recomputed from %s: %.6g\n", f.computed_at.empty() ? "these alone" : "that computation alone", again);
    return 0;
}

} // namespace cli
