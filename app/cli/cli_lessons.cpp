// The debugging lessons on the command line: diagnose (an injected bug and the first diverging stage),
// transfer (the SelfAttention_v2 -> v1 weight copy) and contract (the constructor call read slot by slot).
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "call/call_parser.h"
#include "lessons/contract.h"
#include "lessons/divergence.h"
#include "tensor/error.h"
#include "forward/experiment.h"
#include "lessons/transfer.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

json shape_or_null(const Shape& shape, bool known)
{
    return known ? json(shape) : json(nullptr);
}

json divergence_json(const std::optional<FirstDivergence>& d)
{
    if (!d)
        return nullptr;
    const bool config = d->stage == "config";
    return {{"stage", d->stage},
            {"kind", status_name(d->kind)},
            {"expected_shape", shape_or_null(d->expected_shape, !config)},
            {"observed_shape", shape_or_null(d->observed_shape, d->kind != DivergenceStatus::Error)},
            {"message", d->message}};
}

void print_diagnosis(const Diagnosis& d, const BugInfo& info)
{
    std::cout << canonical_call(d.correct.config) << "\n";
    if (info.bug != Bug::None)
        std::cout << "bug " << info.name << ": " << info.title << "\n  - " << info.book_line << "\n  + "
                  << info.buggy_line << "\n"
                  << info.explanation << "\n";
    std::cout << "\n"
              << std::left << std::setw(22) << "stage" << std::setw(20) << "book" << std::setw(20) << "buggy"
              << "verdict\n";
    for (const auto& row : d.stages) {
        const bool config = row.stage == "config";
        std::cout << std::left << std::setw(22) << row.stage << std::setw(20)
                  << (config ? "-" : shape_to_string(row.expected_shape)) << std::setw(20)
                  << (row.observed_shape.empty() ? "-" : shape_to_string(row.observed_shape)) << status_name(row.status)
                  << "\n";
    }
    if (d.first)
        std::cout << "\nfirst divergence at " << d.first->stage << " (" << status_name(d.first->kind)
                  << "): " << d.first->message << "\n";
    else
        std::cout << "\nno divergence: " << d.why_none << "\n";
}

} // namespace

int cmd_diagnose(const std::vector<std::string>& argv)
{
    Args a(argv, {"call", "bug", "batch", "tokens", "seed", "max-memory"}, {"json"});
    const std::string text = a.required("call");
    const std::string bug_name = a.required("bug");
    ParsedCall parsed = parse_call(text);
    if (!parsed.ok())
        throw Error(parsed.error ? parsed.error->with_caret(text) : "the call could not be read.");
    const Bug bug = bug_from_name(bug_name);
    if (parsed.config->kind != ModuleKind::MultiHeadAttention)
        throw Error("the injected bugs are written for MultiHeadAttention, not " +
                    module_class_name(parsed.config->kind) + ".");
    ExperimentSpec spec;
    spec.config = *parsed.config;
    spec.batch = a.integer("batch", 2, 1, 1 << 16);
    spec.num_tokens = a.integer("tokens", 6, 1, 1 << 16);
    spec.seed = static_cast<std::uint64_t>(a.integer("seed", 123, 0, INT64_MAX));
    spec.memory_budget = a.bytes("max-memory", spec.memory_budget);
    spec.memory_use = {.passes = 2, .bug_forward = true, .process = process_baseline_bytes()}; // book's and buggy
    const Experiment e = prepare(spec); // refuses invalid configs and oversized requests before allocating
    const Diagnosis d = diagnose(e.spec.config, e.weights, e.x, bug);
    const BugInfo& info = bug_info(bug);
    if (!a.flag("json")) {
        print_diagnosis(d, info);
        return 0;
    }
    json stages = json::array();
    for (const auto& row : d.stages)
        stages.push_back({{"stage", row.stage},
                          {"status", status_name(row.status)},
                          {"expected_shape", shape_or_null(row.expected_shape, row.stage != "config")},
                          {"observed_shape", shape_or_null(row.observed_shape, !row.observed_shape.empty())}});
    std::cout << cli::json_text(json{{"call", canonical_call(e.spec.config)},
                                     {"bug", info.name},
                                     {"title", info.title},
                                     {"diff", {{"book", info.book_line}, {"buggy", info.buggy_line}}},
                                     {"explanation", info.explanation},
                                     {"batch", spec.batch},
                                     {"tokens", spec.num_tokens},
                                     {"seed", spec.seed},
                                     {"first_divergence", divergence_json(d.first)},
                                     {"why_no_divergence", d.first ? json(nullptr) : json(d.why_none)},
                                     {"stages", stages}})
              << "\n";
    return 0;
}

int cmd_transfer(const std::vector<std::string>& argv)
{
    Args a(argv, {"d-in", "d-out", "omit", "no-transpose", "seed", "tokens"}, {"json"}, {"omit", "no-transpose"});
    TransferSpec spec;
    spec.d_in = a.integer("d-in", 3, 1, 1 << 14);
    spec.d_out = a.integer("d-out", 2, 1, 1 << 14);
    for (const auto& role : a.all("omit"))
        spec.line(role_from_name(role)).written = false;
    for (const auto& role : a.all("no-transpose"))
        spec.line(role_from_name(role)).transpose = false;
    const auto seed = static_cast<std::uint64_t>(a.integer("seed", 123, 0, INT64_MAX));
    const TransferResult r = run_transfer(spec, seed, a.integer("tokens", 6, 1, 1 << 14));
    if (a.flag("json")) {
        std::cout << cli::json_text(
                         json{{"status", transfer_status_name(r.status)},
                              {"max_abs_diff", r.max_abs_diff ? json(*r.max_abs_diff) : json(nullptr)},
                              {"message", r.message},
                              {"pytorch_error", r.pytorch_error.empty() ? json(nullptr) : json(r.pytorch_error)},
                              {"d_in", spec.d_in},
                              {"d_out", spec.d_out},
                              {"seed", seed},
                              {"code", transfer_code(spec)}})
                  << "\n";
        return 0;
    }
    for (const auto& line : transfer_code(spec))
        std::cout << line << "\n";
    std::cout << "\n" << transfer_status_name(r.status) << ": " << r.message << "\n";
    return 0;
}

int cmd_contract(const std::vector<std::string>& argv)
{
    Args a(argv, {"call", "d-in-of-input", "tokens"}, {"json"});
    const std::string text = a.required("call");
    if (const ParsedCall syntax = parse_call_syntax(text); syntax.error)
        throw Error(syntax.error->with_caret(text)); // nothing to name when the call cannot even be read
    ContractInput input;
    if (a.has("d-in-of-input"))
        input.d_in = a.integer("d-in-of-input", 0, 1, 1 << 24);
    if (a.has("tokens"))
        input.num_tokens = a.integer("tokens", 0, 1, 1 << 24);
    const ContractReport r = check_contract(text, input);
    if (a.flag("json")) {
        json values = json::array(), findings = json::array(), diagnostics = json::array();
        for (const auto& v : r.values)
            values.push_back(
                {{"slot", v.slot.empty() ? json(nullptr) : json(v.slot)}, {"text", v.text}, {"keyword", v.keyword}});
        for (const auto& f : r.findings)
            findings.push_back({{"code", contract_finding_name(f.code)},
                                {"slots", f.slots},
                                {"message", f.message},
                                {"suggested_call", f.suggested_call}});
        for (const auto& d : r.diagnostics)
            diagnostics.push_back({{"code", diagnostic_code_name(d.code)},
                                   {"severity", severity_name(d.severity)},
                                   {"slot", d.slot ? slot_name(*d.slot) : ""},
                                   {"message", d.message}});
        std::cout << cli::json_text(
                         json{{"call", r.call},
                              {"class", r.class_name},
                              {"binds", r.config.has_value()},
                              {"values", values},
                              {"error", r.error ? json{{"message", r.error->message}, {"column", r.error->column}}
                                                : json(nullptr)},
                              {"diagnostics", diagnostics},
                              {"findings", findings}})
                  << "\n";
        return 0;
    }
    std::cout << r.call << "\n";
    for (const auto& v : r.values)
        std::cout << "  " << std::left << std::setw(16) << (v.slot.empty() ? "(no slot)" : v.slot) << v.text << "\n";
    if (r.error)
        std::cout << "does not bind: " << r.error->message << "\n";
    for (const auto& f : r.findings)
        std::cout << contract_finding_name(f.code) << ": " << f.message << "\n";
    if (r.findings.empty())
        std::cout << "no confusion found\n";
    return 0;
}

} // namespace cli
