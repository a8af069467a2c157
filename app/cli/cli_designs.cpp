// Wrapper vs integrated on the command line: layout (the three designs' parameter blocks) and
// equivalence (a wrapper sliced from the integrated weights reproduces context.merged). The
// trade-off tables are in cli_tradeoffs.cpp.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "call/call_parser.h"
#include "forward/stage_names.h"
#include "designs/design_layout.h"
#include "designs/equivalence.h"
#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iomanip>
#include <iostream>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

// layout and equivalence take a MultiHeadAttention call; layout also reads a wrapper call as the same arguments.
Config design_call(const std::string& text)
{
    ParsedCall parsed = parse_call(text);
    if (!parsed.ok())
        throw Error(parsed.error ? parsed.error->with_caret(text) : "the call could not be read.");
    return *parsed.config;
}

json block_json(const Block& b)
{
    json out = {{"name", b.name}, {"shape", b.shape},    {"parameters", b.parameters}, {"role", role_name(b.role)},
                {"head", b.head}, {"is_bias", b.is_bias}};
    if (!b.head_slices.empty()) {
        json slices = json::array();
        for (const HeadSlice& s : b.head_slices)
            slices.push_back({{"head", s.head}, {"axis", s.axis}, {"begin", s.begin}, {"end", s.end}});
        out["head_slices"] = slices;
    }
    return out;
}

json design_json(const DesignLayout& d)
{
    if (!d.exists)
        return {{"exists", false},         {"why_not", d.why_not},    {"parameters", nullptr},
                {"output_width", nullptr}, {"blocks", json::array()}, {"buffers", json::array()}};
    json blocks = json::array(), buffers = json::array();
    for (const Block& b : d.blocks)
        blocks.push_back(block_json(b));
    for (const Block& b : d.buffers)
        buffers.push_back(
            {{"name", b.name}, {"shape", b.shape}, {"parameters", 0}, {"role", "mask"}, {"head", b.head}});
    return {{"exists", true},
            {"module", d.call},
            {"num_heads", d.num_heads},
            {"head_width", d.head_width},
            {"parameters", d.parameters},
            {"output_width", d.output_width},
            {"blocks", blocks},
            {"buffers", buffers}};
}

// 2360064 -> "2,360,064": counts this size are read, not parsed.
std::string grouped(std::int64_t n)
{
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > (n < 0 ? 1 : 0); i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

std::string owner(const Block& b)
{
    if (b.head >= 0)
        return "head " + std::to_string(b.head);
    if (b.head_slices.empty())
        return "shared";
    const HeadSlice& s = b.head_slices.front();
    return std::to_string(b.head_slices.size()) + " slices of " + std::to_string(s.end - s.begin) +
           (s.axis == 0 ? " rows" : " columns");
}

void print_design(const DesignLayout& d)
{
    std::cout << design_key(d.design) << ": ";
    if (!d.exists) {
        std::cout << "does not exist: " << d.why_not << "\n\n";
        return;
    }
    std::cout << d.call << "\n";
    std::cout << "  " << std::left << std::setw(28) << "block" << std::setw(16) << "shape" << std::right
              << std::setw(14) << "parameters"
              << "  " << std::left << std::setw(10) << "role"
              << "owner\n";
    auto row = [](const Block& b, const std::string& label) {
        std::cout << "  " << std::left << std::setw(28) << label << std::setw(16) << shape_to_string(b.shape)
                  << std::right << std::setw(14) << grouped(b.parameters) << "  " << std::left << std::setw(10)
                  << role_name(b.role) << owner(b) << "\n";
    };
    for (const Block& b : d.blocks)
        row(b, b.name);
    for (const Block& b : d.buffers)
        row(b, b.name + " (buffer)");
    std::cout << "  " << std::left << std::setw(44) << "total" << std::right << std::setw(14) << grouped(d.parameters)
              << "  output width " << grouped(d.output_width) << " (" << d.num_heads << " heads of " << d.head_width
              << ")\n\n";
}

} // namespace

int cmd_layout(const std::vector<std::string>& argv)
{
    Args a(argv, {"call"}, {"json"});
    const DesignComparison cmp = compare_designs(design_call(a.required("call")));
    if (a.flag("json")) {
        json out = {{"call", canonical_call(cmp.call)}};
        if (!cmp.note.empty())
            out["note"] = cmp.note;
        for (const DesignLayout& d : cmp.designs)
            out[design_key(d.design)] = design_json(d);
        std::cout << cli::json_text(out) << "\n";
        return 0;
    }
    std::cout << canonical_call(cmp.call) << "\n";
    if (!cmp.note.empty())
        std::cout << "note: " << cmp.note << "\n";
    std::cout << "\n";
    for (const DesignLayout& d : cmp.designs)
        print_design(d);
    return 0;
}

int cmd_equivalence(const std::vector<std::string>& argv)
{
    Args a(argv, {"call", "tokens", "batch", "seed"}, {"json"});
    ExperimentSpec spec;
    spec.config = design_call(a.required("call"));
    spec.num_tokens = a.integer("tokens", 6, 1, 1 << 24);
    spec.batch = a.integer("batch", 1, 1, 1 << 20);
    spec.seed = static_cast<std::uint64_t>(a.integer("seed", 123, 0, INT64_MAX));
    const Equivalence e = check_equivalence(spec);
    if (a.flag("json")) {
        json heads = json::array();
        for (const HeadEquivalence& h : e.heads) {
            json copies = json::array();
            for (const SliceCopy& c : h.copies)
                copies.push_back({{"wrapper", c.wrapper_name},
                                  {"integrated", c.integrated_name},
                                  {"rows", {c.row_begin, c.row_end}}});
            heads.push_back({{"head", h.head},
                             {"query_rows", {h.row_begin, h.row_end}},
                             {"max_abs_diff", h.max_abs_diff},
                             {"copies", copies}});
        }
        std::cout << cli::json_text(json{{"call", canonical_call(e.integrated)},
                                         {"wrapper_call", canonical_call(e.wrapper)},
                                         {"input_shape", e.x.shape()},
                                         {"seed", spec.seed},
                                         {"compared", "wrapper output vs integrated " +
                                                          std::string(stage::context_merged) + " (before out_proj)"},
                                         {"max_abs_diff", e.max_abs_diff},
                                         {"output_max_abs_diff", e.output_max_abs_diff},
                                         {"tolerance", kEquivalenceTolerance},
                                         {"equivalent", e.equivalent()},
                                         {"heads", heads}})
                  << "\n";
    } else {
        char line[160];
        std::cout << canonical_call(e.integrated) << "\nsliced into " << canonical_call(e.wrapper) << "\ninput "
                  << shape_to_string(e.x.shape()) << ", seed " << spec.seed << "\n\n";
        std::snprintf(line, sizeof line, "max |wrapper output - %s|          = %.3g (%s %.0e)\n", stage::context_merged,
                      e.max_abs_diff, e.equivalent() ? "below" : "NOT below", kEquivalenceTolerance);
        std::cout << line;
        std::snprintf(line, sizeof line, "max |out_proj(wrapper output) - module output| = %.3g\n\n",
                      e.output_max_abs_diff);
        std::cout << line << "head  rows of W_query, W_key, W_value  max abs diff\n";
        for (const HeadEquivalence& h : e.heads) {
            const std::string rows = "[" + std::to_string(h.row_begin) + ", " + std::to_string(h.row_end) + ")";
            std::snprintf(line, sizeof line, "%.3g\n", h.max_abs_diff);
            std::cout << std::left << std::setw(6) << h.head << std::setw(33) << rows << line;
        }
    }
    if (!e.equivalent())
        throw Error("the wrapper's output differs from " + std::string(stage::context_merged) + " by " +
                    std::to_string(e.max_abs_diff) +
                    ", above the 1e-05 tolerance, so the two designs disagree on this input.");
    return 0;
}

} // namespace cli
