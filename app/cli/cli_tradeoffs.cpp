// `tradeoffs`: with --d-out, one row per valid num_heads (cost and score memory); with --num-heads,
// the d_out values that split evenly. The numbers come from core/designs/tradeoffs.h, as in the GUI explorer.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "tensor/error.h"
#include "forward/experiment.h"
#include "designs/tradeoffs.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iomanip>
#include <iostream>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

// Multiply-adds are whole numbers held in doubles; print them as integers while that is exact.
json count(double v)
{
    if (v == std::floor(v) && std::fabs(v) <= 9007199254740992.0)
        return static_cast<std::int64_t>(v);
    return v;
}

std::string count_text(double v)
{
    std::ostringstream out;
    if (v < 1e15)
        out << std::fixed << std::setprecision(0) << v;
    else
        out << std::setprecision(4) << v;
    return out.str();
}

int by_width(const Args& a)
{
    if (!a.has("tokens"))
        throw UsageError("tradeoffs --d-out needs --tokens.");
    if (a.has("d-out-min") || a.has("d-out-max"))
        throw UsageError("--d-out-min and --d-out-max go with --num-heads, not --d-out.");
    HeadTradeoffQuery q;
    q.d_out = a.integer("d-out", 768, 1, 1 << 20);
    if (a.has("d-in"))
        q.d_in = a.integer("d-in", 0, 1, 1 << 20);
    q.num_tokens = a.integer("tokens", 1024, 1, 1 << 24);
    q.batch = a.integer("batch", 1, 1, 1 << 20);
    q.qkv_bias = a.flag("qkv-bias");
    const HeadTradeoffs t = head_tradeoffs(q);
    if (a.flag("json")) {
        json rows = json::array();
        for (const HeadOption& r : t.rows)
            rows.push_back({{"num_heads", r.num_heads},
                            {"head_dim", r.head_dim},
                            {"parameters", r.parameters},
                            {"multiply_adds",
                             {{"projections", count(r.cost.projections)},
                              {"scores", count(r.cost.scores)},
                              {"context", count(r.cost.context)},
                              {"out_proj", count(r.cost.out_proj)},
                              {"total", count(r.cost.total())}}},
                            {"score_bytes", count(r.score_bytes)}});
        std::cout << cli::json_text(json{{"d_in", t.d_in},
                                         {"d_out", t.d_out},
                                         {"tokens", t.num_tokens},
                                         {"batch", t.batch},
                                         {"qkv_bias", t.qkv_bias},
                                         {"rows", rows}})
                  << "\n";
        return 0;
    }
    std::cout << "MultiHeadAttention(d_in=" << t.d_in << ", d_out=" << t.d_out
              << ", num_heads=H, qkv_bias=" << (t.qkv_bias ? "True" : "False") << "), batch " << t.batch << ", "
              << t.num_tokens << " tokens\n\n"
              << std::right << std::setw(9) << "num_heads" << std::setw(10) << "head_dim" << std::setw(14)
              << "parameters" << std::setw(16) << "projections" << std::setw(14) << "scores" << std::setw(14)
              << "context" << std::setw(14) << "out_proj" << std::setw(12) << "scores mem\n";
    for (const HeadOption& r : t.rows) {
        const std::string memory = r.score_bytes < 1.8e19 ? format_bytes(static_cast<std::uint64_t>(r.score_bytes))
                                                          : count_text(r.score_bytes) + " B";
        std::cout << std::setw(9) << r.num_heads << std::setw(10) << r.head_dim << std::setw(14) << r.parameters
                  << std::setw(16) << count_text(r.cost.projections) << std::setw(14) << count_text(r.cost.scores)
                  << std::setw(14) << count_text(r.cost.context) << std::setw(14) << count_text(r.cost.out_proj)
                  << std::setw(12) << memory << "\n";
    }
    std::cout << "\nMultiply-adds and parameters do not depend on num_heads (H * head_dim = d_out); the attention "
                 "scores, b * H * T * T floats, grow with it.\n";
    return 0;
}

int by_heads(const Args& a)
{
    if (a.has("tokens") || a.has("batch"))
        throw UsageError("--tokens and --batch go with --d-out; --num-heads lists the valid widths only.");
    WidthQuery q;
    q.num_heads = a.integer("num-heads", 12, 1, 1 << 20);
    q.d_out_min = a.integer("d-out-min", 1, 1, 1 << 20);
    if (a.has("d-out-max"))
        q.d_out_max = a.integer("d-out-max", 0, 1, 1 << 20);
    if (a.has("d-in"))
        q.d_in = a.integer("d-in", 0, 1, 1 << 20);
    q.qkv_bias = a.flag("qkv-bias");
    const std::vector<WidthOption> rows = width_options(q);
    if (a.flag("json")) {
        json out = json::array();
        for (const WidthOption& r : rows)
            out.push_back({{"d_out", r.d_out}, {"head_dim", r.head_dim}, {"parameters", r.parameters}});
        std::cout << cli::json_text(json{{"num_heads", q.num_heads},
                                         {"d_in", q.d_in ? json(*q.d_in) : json("d_out")},
                                         {"qkv_bias", q.qkv_bias},
                                         {"rows", out}})
                  << "\n";
        return 0;
    }
    std::cout << "d_out values that split into " << q.num_heads << " heads (multiples of " << q.num_heads << ")\n\n"
              << std::right << std::setw(10) << "d_out" << std::setw(10) << "head_dim" << std::setw(16)
              << "parameters\n";
    for (const WidthOption& r : rows)
        std::cout << std::setw(10) << r.d_out << std::setw(10) << r.head_dim << std::setw(15) << r.parameters << "\n";
    return 0;
}

} // namespace

int cmd_tradeoffs(const std::vector<std::string>& argv)
{
    Args a(argv, {"d-out", "d-in", "tokens", "batch", "num-heads", "d-out-min", "d-out-max"}, {"json", "qkv-bias"});
    if (a.has("d-out") == a.has("num-heads"))
        throw UsageError("give either --d-out (every valid num_heads for that width) or --num-heads (every valid "
                         "d_out for that head count).");
    return a.has("d-out") ? by_width(a) : by_heads(a);
}

} // namespace cli
