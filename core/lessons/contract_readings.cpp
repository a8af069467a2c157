// Reading the written values and judging one assignment of them to slots: could it be a working module?
#include "lessons/contract_detail.h"

#include "call/call_literals.h"

#include <algorithm>
#include <cmath>

namespace attnlab::contract_detail {

std::optional<Number> number_of(const ContractValue& v)
{
    if (v.kind == LiteralKind::Int)
        if (auto i = python_int_value(v.text))
            return Number{static_cast<double>(*i), true};
    if (v.kind == LiteralKind::Float)
        if (auto f = python_float_value(v.text))
            return Number{*f, false};
    return std::nullopt;
}

bool has_slot(ModuleKind kind, const std::string& slot)
{
    const auto& s = module_slots(kind);
    return std::find(s.begin(), s.end(), slot) != s.end();
}

std::vector<std::string> troubles(ModuleKind kind, const std::vector<ContractValue>& values, const Reading& r,
                                  const ContractInput& in)
{
    std::vector<std::string> out;
    std::map<std::string, double> n;
    for (const char* slot : {"d_in", "d_out", "context_length", "num_heads"}) {
        if (!has_slot(kind, slot) || !r.count(slot))
            continue;
        const ContractValue& v = values[r.at(slot)];
        const auto num = number_of(v);
        if (!num || !num->integral)
            out.push_back(std::string(slot) + " = " + v.text + " is not a whole number");
        else if (num->value <= 0)
            out.push_back(std::string(slot) + " = " + v.text + " is not positive");
        else
            n[slot] = num->value;
    }
    if (has_slot(kind, "dropout") && r.count("dropout")) {
        const ContractValue& v = values[r.at("dropout")];
        const auto num = number_of(v);
        if (!num || num->value < 0 || num->value > 1)
            out.push_back("dropout = " + v.text + " is not a probability in [0, 1]");
    }
    // On the doubles: a value past 2^63 (a slot given 9223372036854775807) has no int64 to be cast to.
    if (kind == ModuleKind::MultiHeadAttention && n.count("d_out") && n.count("num_heads") &&
        std::fmod(n["d_out"], n["num_heads"]) != 0)
        out.push_back("d_out = " + values[r.at("d_out")].text + " cannot be split into " +
                      values[r.at("num_heads")].text + " heads");
    if (in.num_tokens && n.count("context_length") && n["context_length"] < static_cast<double>(*in.num_tokens))
        out.push_back("context_length = " + values[r.at("context_length")].text + " is shorter than the input's " +
                      std::to_string(*in.num_tokens) + " tokens");
    return out;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep)
{
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : sep) + p;
    return out;
}

std::string order_text(const std::vector<std::string>& slots)
{
    return std::string("(").append(join(slots, ", ")).append(")");
}

std::string render(const std::string& call, const std::vector<ContractValue>& values,
                   const std::vector<std::string>& texts)
{
    std::string out = call;
    for (std::size_t i = values.size(); i-- > 0;)
        out.replace(values[i].begin, values[i].end - values[i].begin, texts[i]);
    return out;
}

} // namespace attnlab::contract_detail
