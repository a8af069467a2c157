#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "call/call_parser.h"
#include "lessons/contract_call.h"
#include "designs/cost_model.h"
#include "tensor/error.h"
#include "forward/experiment.h"
#include "io/atomic_file.h"
#include "forward/module_source.h"
#include "tensor/blas_kernel.h"
#include "tensor/threads.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <sys/resource.h>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

const std::set<std::string> kRunOptions = {"call",   "batch", "tokens", "seed",       "dropout-seed", "weights",
                                           "layout", "layer", "input",  "max-memory", "dump"};

Config parse_config(const std::string& text)
{
    ParsedCall parsed = parse_call(text);
    if (!parsed.ok())
        throw Error(parsed.error ? parsed.error->with_caret(text) : "the call could not be read.");
    return *parsed.config;
}

ExperimentSpec spec_from(const Args& a)
{
    for (const char* path : {"weights", "input", "dump"})
        if (a.has(path) && a.text(path).empty())
            throw Error(std::string("--") + path + " is empty; give the path of a .safetensors file.");
    ExperimentSpec s;
    s.config = parse_config(a.required("call"));
    s.batch = a.integer("batch", 1, 1, 1 << 20);
    s.num_tokens = a.integer("tokens", 6, 1, 1 << 24);
    s.seed = static_cast<std::uint64_t>(a.integer("seed", 123, 0, INT64_MAX));
    s.weights_path = a.text("weights");
    if (a.has("layout")) {
        s.layout = layout_from_name(a.text("layout"));
        s.layout_from_file = false;
    }
    s.layer = static_cast<int>(a.integer("layer", 0, 0, 10000));
    if (a.has("input")) {
        s.input = a.text("input") == "book" ? InputSource::Book : InputSource::File;
        s.input_path = a.text("input");
    }
    s.training = a.flag("train");
    if (a.has("dropout-seed")) {
        if (!s.training)
            throw UsageError("--dropout-seed re-seeds dropout's masks, which exist only with --train.");
        s.dropout_seed = static_cast<std::uint64_t>(a.integer("dropout-seed", 0, 0, INT64_MAX));
    }
    s.memory_budget = a.bytes("max-memory", s.memory_budget);
    s.memory_use.process = process_baseline_bytes(); // the budget bounds the whole process's peak
    s.memory_use.dump = a.has("dump");
    return s;
}

std::string code_of(const Config& c, const Stage& s)
{
    const auto& src = module_source(c.kind);
    if (s.code_line < 0 || s.code_line >= static_cast<int>(src.size()))
        return {};
    std::string line = src[static_cast<std::size_t>(s.code_line)];
    line.erase(0, line.find_first_not_of(' '));
    return line;
}

json stage_json(const Config& c, const Stage& s)
{
    return json{{"name", s.name},
                {"line", s.code_line},
                {"code", code_of(c, s)},
                {"axes", s.axes},
                {"shape", s.tensor.shape()},
                {"expected_shape", s.expected_shape},
                {"strides", s.tensor.strides()},
                {"contiguous", s.tensor.is_contiguous()},
                {"view_of", s.view_of.empty() ? json(nullptr) : json(s.view_of)}};
}

json diagnostics_json(const std::vector<Diagnostic>& diags)
{
    json out = json::array();
    for (const auto& d : diags) {
        json fixes = json::array();
        for (const auto& f : d.fixes)
            fixes.push_back({{"slot", slot_name(f.slot)}, {"value", f.value}});
        json entry = {{"code", diagnostic_code_name(d.code)},
                      {"severity", severity_name(d.severity)},
                      {"slot", d.slot ? slot_name(*d.slot) : ""},
                      {"message", d.message},
                      {"fixes", fixes}};
        if (!d.call_fix.empty())
            entry["call_fix"] = d.call_fix;
        out.push_back(entry);
    }
    return out;
}

} // namespace

int cmd_validate(const std::vector<std::string>& argv)
{
    Args a(argv, {"call", "batch", "tokens"}, {"json"});
    const std::string text = a.required("call");
    std::optional<InputShape> input;
    if (a.has("tokens") || a.has("batch"))
        input = InputShape{a.integer("batch", 1, 0, 1 << 20), a.integer("tokens", 1, 0, 1 << 24)};
    // The same reading as the GUI's call line and the contract: a likely swap is named before the rest.
    const CallReading reading = read_call(text, input);
    const ParsedCall parsed = parse_call(text);
    if (!reading.config) {
        if (a.flag("json"))
            std::cout << cli::json_text(
                             json{{"valid", false},
                                  {"error", {{"message", reading.error->message}, {"column", reading.error->column}}},
                                  {"diagnostics", diagnostics_json(reading.diagnostics)}})
                      << "\n";
        throw Error(reading.error->with_caret(text));
    }
    const Config& c = *reading.config;
    const auto& diags = reading.diagnostics;
    const bool valid = !has_error(diags);
    if (a.flag("json")) {
        json slots = json::array();
        for (const auto& arg : parsed.syntax.arguments)
            slots.push_back({{"slot", arg.slot}, {"text", arg.text}, {"keyword", arg.keyword.has_value()}});
        json out = {{"valid", valid},
                    {"class", module_class_name(c.kind)},
                    {"call", canonical_call(c)},
                    {"positional", positional_call(c)},
                    {"slots", slots}};
        if (c.is_integrated())
            out["head_dim"] = valid ? json(c.head_dim()) : json(nullptr);
        if (c.is_grouped()) {
            out["num_kv_groups"] = c.num_kv_groups;
            out["group_size"] = valid ? json(c.group_size()) : json(nullptr);
        }
        out["output_width"] = c.output_width();
        out["diagnostics"] = diagnostics_json(diags);
        std::cout << cli::json_text(out) << "\n";
    } else {
        std::cout << canonical_call(c) << "\n";
        for (const auto& arg : parsed.syntax.arguments)
            std::cout << "  " << std::left << std::setw(16) << arg.slot << arg.text << "\n";
        if (c.is_integrated() && valid)
            std::cout << "  head_dim        " << c.head_dim() << "  (d_out " << c.d_out << " / num_heads "
                      << c.num_heads << ")\n";
        if (c.is_grouped() && valid)
            std::cout << "  group_size      " << c.group_size() << "  (num_heads " << c.num_heads << " / num_kv_groups "
                      << c.num_kv_groups << ": query heads per key/value head)\n";
        std::cout << "  output width    " << c.output_width() << "\n";
        for (const auto& d : diags)
            std::cout << severity_name(d.severity) << " [" << diagnostic_code_name(d.code) << "]: " << d.message
                      << "\n";
        if (diags.empty())
            std::cout << "no problems found\n";
    }
    if (!valid) {
        for (const auto& d : diags)
            if (d.severity == Severity::Error)
                std::cerr << "attention-lab-cli validate: " << d.message << "\n";
        return 1;
    }
    return 0;
}

int cmd_trace(const std::vector<std::string>& argv)
{
    Args a(argv, kRunOptions, {"json", "train"});
    ExperimentSpec spec = spec_from(a);
    spec.memory_use.json_stages = a.flag("json");
    const Trace trace = run(prepare(spec));
    const Config& c = trace.config;
    if (a.flag("json")) {
        json stages = json::array();
        for (const auto& s : trace.stages)
            stages.push_back(stage_json(c, s));
        std::cout << cli::json_text(json{{"call", canonical_call(c)}, {"stages", stages}}) << "\n";
        return 0;
    }
    std::cout << canonical_call(c) << "\n\n";
    std::cout << std::left << std::setw(26) << "stage" << std::setw(5) << "line" << std::setw(22) << "shape"
              << std::setw(24) << "strides" << std::setw(12) << "contiguous"
              << "code\n";
    for (const auto& s : trace.stages) {
        std::string note = s.view_of.empty() ? "" : "  (view of " + s.view_of + ")";
        std::cout << std::left << std::setw(26) << s.name << std::setw(5) << s.code_line << std::setw(22)
                  << shape_to_string(s.tensor.shape()) << std::setw(24) << shape_to_string(s.tensor.strides())
                  << std::setw(12) << (s.tensor.is_contiguous() ? "yes" : "no") << code_of(c, s) << note << "\n";
    }
    return 0;
}

int cmd_run(const std::vector<std::string>& argv)
{
    // A trained model states its own call, so --model takes the other road (cli_gpt.cpp).
    if (std::any_of(argv.begin(), argv.end(), [](const std::string& s) { return s.rfind("--model", 0) == 0; }))
        return cmd_run_gpt(argv);
    Args a(argv, kRunOptions, {"json", "train"});
    const std::string out = a.required("dump");
    const Experiment experiment = prepare(spec_from(a));
    check_write_target(out); // a device, a link or a missing folder is refused before the pass, not after
    const Trace trace = run(experiment);
    write_dump(out, trace);
    if (a.flag("json"))
        std::cout << cli::json_text(json{{"dump", out},
                                         {"stages", trace.stages.size()},
                                         {"output_shape", trace.output().shape()},
                                         {"threads", engine_threads()}})
                  << "\n";
    else
        std::cout << "wrote " << trace.stages.size() << " stages to " << out << "\n";
    return 0;
}

namespace {

// Which kernel ran: a figure without it cannot be compared with another machine's, or with PyTorch's.
json blas_json()
{
    const BlasReport r = blas_report();
    json j{{"library", r.library}, {"kernel", r.kernel}, {"chosen_by", r.chosen_by}, {"sentence", r.sentence()}};
    if (!r.replaced.empty())
        j["replaced"] = r.replaced;
    if (!r.ignored.empty())
        j["ignored_coretype"] = r.ignored;
    return j;
}

} // namespace

int cmd_bench(const std::vector<std::string>& argv)
{
    std::set<std::string> options = kRunOptions;
    options.insert({"threads", "repeat"});
    Args a(argv, options, {"json", "train"}); // --batch 1 and --tokens 6 unless given, as run takes them
    const int threads = static_cast<int>(a.integer("threads", 1, 1, 256));
    const int repeat = static_cast<int>(a.integer("repeat", 5, 1, 10000));
    set_engine_threads(threads);
    const Experiment e = prepare(spec_from(a));
    std::vector<double> ms;
    PhaseTimes phases;
    ForwardOptions forward;
    forward.training = e.spec.training;
    TorchGenerator gen = dropout_generator(e);
    forward.generator = &gen;
    trace_forward(e.spec.config, e.weights, e.x, forward); // warm-up: first-touch page faults and caches
    forward.profile = &phases;
    for (int i = 0; i < repeat; ++i) {
        gen = dropout_generator(e); // every timed run draws the same masks
        const auto t0 = std::chrono::steady_clock::now();
        const Trace t = trace_forward(e.spec.config, e.weights, e.x, forward);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double gflops = forward_cost(e.spec.config, {e.spec.batch, e.spec.num_tokens}).flops() / (median * 1e6);
    // Mean time per phase (MultiHeadAttention only); "other" is allocation and trace bookkeeping.
    const std::pair<const char*, double> parts[] = {
        {"projections", phases.projections}, {"scores", phases.scores}, {"softmax", phases.softmax},
        {"context", phases.context},         {"merge", phases.merge},   {"out_proj", phases.out_proj}};
    json phase_json = json::object();
    double accounted = 0;
    for (const auto& [name, total] : parts) {
        phase_json[name] = total / repeat;
        accounted += total / repeat;
    }
    double mean = 0;
    for (double m : ms)
        mean += m / repeat;
    phase_json["other"] = std::max(0.0, mean - accounted);
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const double peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0; // Linux reports KiB
    if (a.flag("json")) {
        std::cout << cli::json_text(
                         json{{"call", canonical_call(e.spec.config)},
                              {"batch", e.spec.batch},
                              {"tokens", e.spec.num_tokens},
                              {"threads", threads},
                              {"repeat", repeat},
                              {"median_ms", median},
                              // The small cases (the book's 6 tokens) take microseconds; a key in that unit
                              // spares readers the leading zeros. Added, so older readers of _ms keep working.
                              {"median_us", median * 1e3},
                              {"min_ms", ms.front()},
                              {"max_ms", ms.back()},
                              {"gflops", gflops},
                              {"peak_rss_mb", peak_rss_mb},
                              {"phases_ms", phase_json},
                              {"blas", blas_json()}})
                  << "\n";
    } else {
        // Below a millisecond, three decimals of ms would leave one significant digit: print µs instead.
        const bool micro = median < 1.0;
        const double unit = micro ? 1e3 : 1.0;
        std::printf("%s  batch %lld, %lld tokens, %d thread(s)\nmedian %.3f %s (min %.3f, max %.3f) over %d runs, %.2f "
                    "GFLOP/s\n",
                    canonical_call(e.spec.config).c_str(), static_cast<long long>(e.spec.batch),
                    static_cast<long long>(e.spec.num_tokens), threads, median * unit, micro ? "µs" : "ms",
                    ms.front() * unit, ms.back() * unit, repeat, gflops);
        if (e.spec.config.is_integrated()) {
            std::printf("mean per phase:");
            for (const auto& [name, value] : phase_json.items())
                std::printf(" %s %.3f %s;", name.c_str(), value.get<double>() * unit, micro ? "µs" : "ms");
            std::printf("\n");
        }
        std::printf("peak resident memory %.1f MB\n", peak_rss_mb);
        std::printf("products by %s\n", blas_report().sentence().c_str());
    }
    return 0;
}

attnlab::ExperimentSpec run_spec_from(const Args& a)
{
    return spec_from(a);
}

const std::set<std::string>& run_options()
{
    return kRunOptions;
}

} // namespace cli
