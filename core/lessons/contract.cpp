// The argument contract: each written value named by its slot, then the confusions checked in the
// order a student would fix them -- slot order first (it moves values between slots), then d_in/d_out
// against the input, then context_length against the input's length. Each fix is applied to a running
// copy of the call, so every finding's suggested call includes the fixes before it.
#include "lessons/contract.h"

#include "lessons/contract_detail.h"

#include "call/call_messages.h"

#include <algorithm>
#include <array>

namespace attnlab {

namespace {

using namespace contract_detail;

struct Checker {
    ContractReport& report;
    const ContractInput& in;
    ModuleKind kind;
    Reading reading;                // the probable intent; starts as the book's reading
    std::vector<std::string> fixed; // running rewrite of the value texts

    void add(ContractFindingCode code, std::vector<std::string> slots, std::string message)
    {
        report.findings.push_back(
            {code, std::move(slots), std::move(message), render(report.call, report.values, fixed)});
    }
    void check_order();
    void check_dropout_heads_swap();
    void check_extra_value();
    void check_widths();
    void check_context();
};

void Checker::check_order()
{
    // Only positional values can land in the wrong slot, and only the heads classes have other orders.
    const auto& vals = report.values;
    if (kind != ModuleKind::MultiHeadAttention && kind != ModuleKind::MultiHeadAttentionWrapper)
        return;
    if (vals.size() < 5 || vals[2].keyword || vals[3].keyword || vals[4].keyword)
        return;
    // A context_length too short for the input alone is its own finding, not a sign of another order.
    const ContractInput widths_only{in.d_in, std::nullopt};
    const auto book_troubles = troubles(kind, vals, reading, widths_only);
    if (book_troubles.empty())
        return;
    // Most likely first: the swap of the last two, then the orders that put num_heads third.
    const std::array<std::array<std::string, 3>, 5> orders = {{{"context_length", "num_heads", "dropout"},
                                                               {"num_heads", "context_length", "dropout"},
                                                               {"num_heads", "dropout", "context_length"},
                                                               {"dropout", "context_length", "num_heads"},
                                                               {"dropout", "num_heads", "context_length"}}};
    for (const auto& order : orders) {
        Reading alt = reading;
        for (std::size_t i = 0; i < 3; ++i)
            alt[order[i]] = 2 + i;
        if (!troubles(kind, vals, alt, widths_only).empty())
            continue;
        const auto& book = module_slots(kind);
        for (std::size_t i = 2; i < 5; ++i)
            fixed[i] = vals[alt[book[i]]].text;
        reading = alt;
        std::vector<std::string> written = {"d_in", "d_out", order[0], order[1], order[2]};
        if (vals.size() > 5)
            written.push_back("qkv_bias");
        if (order[0] == "context_length") {
            add(ContractFindingCode::DropoutNumHeadsSwapped, {"dropout", "num_heads"},
                "dropout and num_heads look swapped: read in the book's order " + order_text(book) + ", " +
                    join(book_troubles, ", and ") + "; the book puts dropout before num_heads, so write " +
                    render(report.call, vals, fixed) + ".");
            return;
        }
        // An order that trades just two slots' values is named as that swap before anything else.
        std::vector<std::string> moved;
        for (std::size_t i = 0; i < 3; ++i)
            if (order[i] != book[2 + i])
                moved.push_back(book[2 + i]);
        const std::string swapped = moved.size() == 2 ? moved[0] + " and " + moved[1] +
                                                            " look swapped, or the call was written for another "
                                                            "slot order: r"
                                                      : "R";
        std::string message = swapped + "ead in the book's order " + order_text(book) +
                              " this call cannot work, since " + join(book_troubles, ", and ") + "; read as " +
                              order_text(written) + " it is a sensible config, so it was probably written for a " +
                              report.class_name + " that takes its arguments in that order";
        // The popular order is named only when it is the one this call makes sense in: under another, it is wrong.
        if (order[0] == "num_heads" && order[1] == "context_length")
            message += " (several popular implementations put num_heads third, e.g. (d_in, d_out, num_heads, "
                       "context_length, dropout, qkv_bias))";
        else if (order[0] == "num_heads")
            message += " (several popular implementations put num_heads third)";
        add(ContractFindingCode::OtherSlotOrder, {"context_length", "dropout", "num_heads"},
            message + ". In the book's order it is " + render(report.call, vals, fixed) + ".");
        return;
    }
}

// The same swap, caught by its signature when no reordering helps (or keywords were used): a value
// of 1 or more where the dropout probability belongs and a float where the head count belongs.
void Checker::check_dropout_heads_swap()
{
    if (!report.findings.empty() || !reading.count("dropout") || !reading.count("num_heads"))
        return;
    const ContractValue& drop = report.values[reading["dropout"]];
    const ContractValue& heads = report.values[reading["num_heads"]];
    const auto d = number_of(drop), h = number_of(heads);
    if (!d || !h || d->value < 1 || h->integral)
        return;
    std::swap(fixed[reading["dropout"]], fixed[reading["num_heads"]]);
    Reading swapped = reading;
    std::swap(swapped["dropout"], swapped["num_heads"]);
    const auto left = troubles(kind, report.values, swapped, in);
    reading = swapped;
    add(ContractFindingCode::DropoutNumHeadsSwapped, {"dropout", "num_heads"},
        "dropout = " + drop.text + " looks like a head count and num_heads = " + heads.text +
            " like a dropout probability, so the two were probably swapped; the book's order is " +
            order_text(module_slots(kind)) + ", dropout before num_heads, so write " +
            render(report.call, report.values, fixed) +
            (left.empty() ? std::string(".") : ", though even then " + join(left, ", and ") + "."));
}

// A value written twice or left over from another signature: Python stops at the slot it lands in or at
// one positional argument too many. When leaving out exactly one value (the same call, whichever of two
// equal ones) gives a working module, that is the likely fix.
void Checker::check_extra_value()
{
    const auto& vals = report.values;
    const auto& book = module_slots(kind);
    if (!report.findings.empty() || !report.error || book.empty() || book.back() != "qkv_bias")
        return;
    if (std::any_of(vals.begin(), vals.end(), [](const ContractValue& v) { return v.keyword; }) ||
        vals.size() < book.size() || vals.size() > book.size() + 1)
        return;
    std::string only;
    std::size_t dropped = 0;
    for (std::size_t i = 2; i < vals.size(); ++i) {
        std::vector<ContractValue> rest;
        Reading r;
        for (std::size_t j = 0; j < vals.size(); ++j)
            if (j != i) {
                r[book[rest.size()]] = rest.size();
                rest.push_back(vals[j]);
            }
        if (rest.size() == book.size() && rest.back().kind != LiteralKind::Bool)
            continue;
        if (!troubles(kind, rest, r, in).empty())
            continue;
        std::string call = report.call;
        call.erase(vals[i - 1].end, vals[i].end - vals[i - 1].end);
        if (!only.empty() && call != only)
            return; // two different values could go: no one fix to offer
        only = call;
        dropped = i;
    }
    if (only.empty())
        return;
    report.findings.push_back({ContractFindingCode::ExtraValue,
                               {vals[dropped].slot.empty() ? std::string("qkv_bias") : vals[dropped].slot},
                               "there is one value too many: the " + ordinal(dropped + 1) + " (" + vals[dropped].text +
                                   ") pushes the rest one slot along, and without it the call reads in the book's "
                                   "order " +
                                   order_text(book) + " as a working module, so write " + only + ".",
                               only});
}

void Checker::check_widths()
{
    if (!in.d_in || !reading.count("d_in") || !reading.count("d_out"))
        return;
    const std::size_t i_in = reading["d_in"], i_out = reading["d_out"];
    const auto d_in = number_of(report.values[i_in]), d_out = number_of(report.values[i_out]);
    if (!d_in || !d_out || d_in->value == static_cast<double>(*in.d_in))
        return;
    const std::string width = std::to_string(*in.d_in);
    if (d_out->value != static_cast<double>(*in.d_in)) {
        fixed[i_in] = width;
        add(ContractFindingCode::DInMismatch, {"d_in"},
            "d_in = " + report.values[i_in].text + " but the input's tokens are " + width +
                " wide; d_in must be the input's embedding width (x.shape[-1]), or the first projection stops with "
                "'mat1 and mat2 shapes cannot be multiplied', so write " +
                render(report.call, report.values, fixed) + ".");
        return;
    }
    std::swap(fixed[i_in], fixed[i_out]);
    Reading swapped = reading;
    std::swap(swapped["d_in"], swapped["d_out"]);
    const auto left = troubles(kind, report.values, swapped, in);
    add(ContractFindingCode::DInDOutSwapped, {"d_in", "d_out"},
        "d_in = " + report.values[i_in].text + " but the input's tokens are " + width +
            " wide, which is the value written for d_out: d_in and d_out were probably swapped. d_in is the width "
            "coming in (x.shape[-1]) and d_out the width going out, so write " +
            render(report.call, report.values, fixed) +
            (left.empty() ? std::string(".") : ", though then " + join(left, ", and ") + "."));
    reading = swapped;
}

void Checker::check_context()
{
    if (!in.num_tokens || !reading.count("context_length") || !Config{kind}.is_causal())
        return;
    const std::size_t i = reading["context_length"];
    const auto ctx = number_of(report.values[i]);
    if (!ctx || !ctx->integral || ctx->value <= 0 || ctx->value >= static_cast<double>(*in.num_tokens))
        return;
    const std::string tokens = std::to_string(*in.num_tokens), text = report.values[i].text;
    fixed[i] = tokens;
    add(ContractFindingCode::ContextTooShort, {"context_length"},
        "context_length = " + text + " is shorter than the input's " + tokens + " tokens: the causal mask is only " +
            text + " x " + text + ", so masked_fill_ cannot cover the " + tokens + " x " + tokens +
            " scores and PyTorch stops there; context_length must be at least the number of tokens, e.g. " +
            render(report.call, report.values, fixed) + ".");
}

} // namespace

ContractReport check_contract(std::string_view call, const ContractInput& input)
{
    ContractReport report;
    report.call = std::string(call);
    ParsedCall parsed = parse_call(call);
    report.class_name = parsed.syntax.class_name;
    report.config = parsed.config;
    report.error = parsed.error;
    const auto kind = module_kind_from_name(parsed.syntax.class_name);
    std::size_t position = 0;
    for (const auto& arg : parsed.syntax.arguments) {
        ContractValue v{{}, arg.value(), arg.kind, arg.keyword.has_value(), arg.value_begin, arg.end};
        if (arg.keyword)
            v.slot = kind && has_slot(*kind, *arg.keyword) ? *arg.keyword : "";
        else if (kind && position < module_slots(*kind).size())
            v.slot = module_slots(*kind)[position];
        position += arg.keyword ? 0 : 1;
        report.values.push_back(std::move(v));
    }
    if (report.config)
        report.diagnostics =
            validate(*report.config,
                     input.num_tokens ? std::optional<InputShape>(InputShape{1, *input.num_tokens}) : std::nullopt);
    if (!kind)
        return report;
    Checker checker{report, input, *kind, {}, {}};
    for (std::size_t i = 0; i < report.values.size(); ++i) {
        checker.fixed.push_back(report.values[i].text);
        if (!report.values[i].slot.empty() && !checker.reading.count(report.values[i].slot))
            checker.reading[report.values[i].slot] = i;
    }
    checker.check_order();
    checker.check_extra_value(); // before the swap's signature: a value written twice can look like a swap
    checker.check_dropout_heads_swap();
    checker.check_widths();
    checker.check_context();
    return report;
}

std::string contract_finding_name(ContractFindingCode code)
{
    switch (code) {
    case ContractFindingCode::DInDOutSwapped: return "d_in-d_out-swapped";
    case ContractFindingCode::DInMismatch: return "d_in-mismatch";
    case ContractFindingCode::DropoutNumHeadsSwapped: return "dropout-num_heads-swapped";
    case ContractFindingCode::OtherSlotOrder: return "other-slot-order";
    case ContractFindingCode::ContextTooShort: return "context-too-short";
    case ContractFindingCode::ExtraValue: return "extra-value";
    }
    return "unknown";
}

std::vector<std::string> flagged_slots(const ContractReport& report)
{
    std::vector<std::string> out;
    for (const ContractFinding& f : report.findings)
        for (const std::string& slot : f.slots)
            if (std::find(out.begin(), out.end(), slot) == out.end())
                out.push_back(slot);
    return out;
}

} // namespace attnlab
