// `train`: the book's chapter 4 GPTModel trained on a task (core/train), one run per num_heads x seed,
// the runs in parallel on the cores; a table of held-out loss and accuracy (mean +- std over seeds),
// steps to 90% of the best accuracy and ms per step; then every head of every variant, measured on the task
// (cli_train_heads.h). --save keeps a model, --dump-run a replayable run.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"
#include "cli/cli_train_heads.h"
#include "cli/cli_train_plan.h"
#include "cli/cli_train_table.h"

#include "forward/experiment.h"

#include "io/atomic_file.h"
#include "tensor/error.h"
#include "text/utf8.h"
#include "train/run_files.h"
#include "train/sweep.h"
#include "train/sweep_spec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>
#include <iostream>
#include <sstream>
#include <filesystem>
#include <thread>

#ifdef __GLIBC__
#include <malloc.h> // mallopt
#endif

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;
using namespace attnlab::train;

// --heads or --kv-groups as given, repeats kept; absent: none, which the sweep reads as every divisor of emb
// (heads) or as many key/value heads as query heads (kv-groups).
std::vector<std::int64_t> parse_counts(const Args& a, const std::string& name)
{
    std::vector<std::int64_t> counts;
    if (!a.has(name))
        return counts;
    const std::string example = "--" + name + (name == "heads" ? " 1,2,4" : " 4,2,1");
    if (a.text(name).empty() || a.text(name).back() == ',')
        throw Error("--" + name + " " + printable(a.text(name), 40) +
                    " ends without a number; give counts joined by commas, e.g. " + example + ".");
    std::stringstream in(a.text(name));
    std::string item;
    while (std::getline(in, item, ','))
        counts.push_back(parse_integer(name, item, 1, 1 << 20));
    if (counts.empty())
        throw Error("--" + name + " needs at least one number, e.g. " + example + ".");
    return counts;
}

// --head-ablation: auto (the report zeroes each head in turn when that costs no more than the training did,
// head_report.h), all or none.
Ablation parse_ablation(const Args& a)
{
    const std::string text = a.has("head-ablation") ? a.text("head-ablation") : "auto";
    if (text == "auto")
        return Ablation::Auto;
    if (text == "all")
        return Ablation::All;
    if (text == "none")
        return Ablation::None;
    throw Error("--head-ablation " + printable(text, 40) + " is not auto, all or none.");
}

double parse_real(const Args& a, const std::string& name, double fallback)
{
    if (!a.has(name))
        return fallback;
    const std::string text = a.text(name);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
        throw Error("--" + name + " '" + text + "' is not a number; give one such as 0.003.");
    return v;
}

std::string seeds_text(const std::vector<std::uint64_t>& seeds) // "0,1,2", as the shipped models say it
{
    std::string out;
    for (std::uint64_t s : seeds)
        out += (out.empty() ? "" : ",") + std::to_string(s);
    return out;
}

// A spread as the saved model's metadata keeps it: "" from one seed, which has none.
std::string spread_meta(const json& std_value)
{
    return std_value.is_null() ? std::string() : fixed(std_value.get<double>(), 4);
}

struct Variant {
    std::int64_t heads = 0, kv_groups = 0; // kv_groups: as given, or the heads
    std::vector<std::size_t> runs;         // indices into the sweep's results
};

json variant_json(const Variant& v, const std::vector<RunResult>& results, const std::vector<HeadReport>& reports)
{
    std::vector<double> loss, acc, to90, ms;
    json seeds = json::array();
    int diverged = 0;
    for (std::size_t i : v.runs) {
        const RunResult& r = results[i];
        if (r.diverged()) { // its numbers stop before the step that was not finite: none of them is shown as a mean
            ++diverged;
            json seed = {{"seed", r.settings.seed},
                         {"steps", r.train_loss.size()},
                         {"diverged_at_step", r.diverged_at},
                         {"advised_lr", advised_lr(r.settings.optimizer.lr)},
                         {"diverged", divergence_text(r)}};
            if (std::isfinite(r.loss_before))
                seed["loss_before"] = r.loss_before;
            seeds.push_back(seed);
            continue;
        }
        loss.push_back(r.final_eval().loss);
        acc.push_back(r.final_eval().accuracy);
        to90.push_back(static_cast<double>(r.steps_to_90()));
        ms.push_back(r.ms_per_step);
        json curve = json::array(); // [step, held-out loss, held-out accuracy]
        for (const EvalPoint& e : r.evals)
            curve.push_back({e.step, e.loss, e.accuracy});
        seeds.push_back({{"seed", r.settings.seed},
                         {"val_loss", r.final_eval().loss},
                         {"val_accuracy", r.final_eval().accuracy},
                         {"steps_to_90", r.steps_to_90()},
                         {"ms_per_step", r.ms_per_step},
                         {"steps", r.train_loss.size()},
                         {"curve", curve},
                         {"heads", heads_json(reports[i])},
                         {"heads_ablated", reports[i].ablated}});
        if (!reports[i].ablated && !reports[i].heads.empty()) // the heads' ablated_* are null: why
            seeds.back()["heads_not_ablated"] = ablation_note(reports[i]);
    }
    const GptConfig& s = results[v.runs.front()].settings.shape;
    // What a KV cache keeps per token: a key and a value row of kv_groups x head_dim floats per layer.
    const std::int64_t kv_bytes = 2 * s.n_layers * s.kv_width() * static_cast<std::int64_t>(sizeof(float));
    json row = {{"n_heads", v.heads},
                {"kv_groups", v.kv_groups},
                {"head_dim", s.emb_dim / v.heads},
                {"kv_bytes_per_token", kv_bytes},
                {"seeds_diverged", diverged},
                {"seeds", seeds}};
    if (loss.empty()) { // every seed diverged: the row says so instead of a mean of nothing
        row["diverged"] = divergence_text(results[v.runs.front()]);
        return row;
    }
    add_seed_means(row, loss, acc, to90); // null spreads from one seed, and the table says "1 seed"
    row["ms_per_step_mean"] = spread(ms).mean;
    return row;
}

} // namespace

int cmd_train(const std::vector<std::string>& argv)
{
#ifdef __GLIBC__
    // Large buffers (a run's weights, moments, activations) from their own mappings, given back when freed: glibc
    // otherwise raises its threshold after the first such free and serves later ones from arenas that keep the
    // freed pages, so the peak would depend on the order runs end in, not on what the estimate counts.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    Args a(argv,
           {"task", "vocab", "context", "emb", "layers", "heads", "kv-groups", "window", "seeds", "seed", "steps",
            "batch", "lr", "weight-decay", "save", "dump-run", "max-memory", "head-ablation"},
           {"json"});
    SweepSpec spec = sweep_defaults(a.required("task"));
    if (a.has("seeds") && a.has("seed"))
        throw UsageError("give --seeds N or --seed S, not both.");
    // Each option's own range; the task's rules (a vocabulary the task's letters fit, a context its sequences fit)
    // and the memory a run needs are core's, checked next with their own sentences.
    spec.vocab = a.integer("vocab", spec.vocab, 1, 1 << 20);
    spec.context = a.integer("context", spec.context, 1, 1 << 16);
    spec.emb = a.integer("emb", spec.emb, 1, 1 << 16);
    spec.layers = a.integer("layers", spec.layers, 1, 1024);
    spec.steps = a.integer("steps", spec.steps, 1, 10'000'000);
    spec.batch = a.integer("batch", spec.batch, 1, 1 << 16);
    spec.lr = parse_real(a, "lr", spec.lr);
    spec.weight_decay = parse_real(a, "weight-decay", spec.weight_decay);
    spec.record_batches = a.has("dump-run");
    check_task(spec.task, spec.vocab, spec.context); // the task's refusal comes before a bad --heads
    spec.heads = parse_counts(a, "heads");
    spec.kv_groups = parse_counts(a, "kv-groups");
    if (a.has("window")) // wider than --context is refused with the run's own sentence (check_gpt_config)
        spec.window = a.integer("window", 0, 1, 1 << 16);
    if (a.has("seed"))
        spec.first_seed = static_cast<std::uint64_t>(a.integer("seed", 0, 0, INT64_MAX));
    else
        spec.seeds = a.integer("seeds", 1, 1, 1000);
    const std::vector<std::int64_t> heads = spec.head_list();
    const std::vector<std::uint64_t> seeds = spec.seed_list();
    const std::vector<std::int64_t> groups = spec.kv_group_list();
    check_run_count(heads.size() * groups.size() * seeds.size());   // before a million runs are even listed
    const std::uint64_t budget = a.bytes("max-memory", UINT64_MAX); // none given: the machine's memory
    const Ablation ablation = parse_ablation(a);
    if (a.has("dump-run") && (heads.size() != 1 || groups.size() != 1 || seeds.size() != 1))
        throw Error(
            "--dump-run records one run; give one --heads value, at most one --kv-groups value and one --seed.");
    if (a.has("save") && (heads.size() != 1 || groups.size() != 1))
        throw Error("--save keeps one model; give one --heads value and at most one --kv-groups value (the first "
                    "seed's model is saved).");
    const std::vector<RunSettings> runs = spec.expand();
    std::vector<Variant> variants;
    for (std::size_t k = 0; k < heads.size() * groups.size(); ++k) { // expand()'s order: heads, groups, seeds
        const std::int64_t g = groups[k % groups.size()];
        Variant v{heads[k / groups.size()], g == 0 ? heads[k / groups.size()] : g, {}};
        for (std::size_t j = 0; j < seeds.size(); ++j)
            v.runs.push_back(k * seeds.size() + j);
        variants.push_back(v);
    }
    for (const char* target : {"save", "dump-run"})
        if (a.has(target))
            check_write_target(a.text(target));
    // One path for two outputs: the model would silently replace the run's dump (it was written first).
    if (a.has("save") && a.has("dump-run")) {
        std::error_code ec1, ec2;
        const auto save = std::filesystem::weakly_canonical(std::filesystem::absolute(a.text("save"), ec1), ec1);
        const auto dump = std::filesystem::weakly_canonical(std::filesystem::absolute(a.text("dump-run"), ec2), ec2);
        if (a.text("save") == a.text("dump-run") || (!ec1 && !ec2 && save == dump))
            throw Error("--save and --dump-run both name " + printable(a.text("save")) +
                        "; the model would replace the run's dump, so give each its own file.");
    }
    if (a.has("dump-run")) // its batches are held until the file is written after training
        check_recorded_bytes(runs.front());

    const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    TrainPlan plan;
    try {
        plan = plan_training(runs, threads, budget, ablation); // memory and time, then said when long
    } catch (const std::bad_alloc&) {                          // the calibration builds the costliest run
        throw Error("ran out of memory building the largest run to time it; give a smaller --emb, --batch or "
                    "--context.");
    }
    TrainProgress progress(runs, plan.long_run);
    const auto start = std::chrono::steady_clock::now();
    std::vector<RunResult> results;
    std::vector<HeadReport> reports;
    double wall = 0.0;
    try {
        results = run_sweep(runs, threads, progress.hooks());
        wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        reports = head_reports(results, threads, progress.report_done(), ablation);
    } catch (const std::bad_alloc&) { // the estimate was short of what this machine gave: say what costs
        throw Error("ran out of memory while training, though it was estimated at about " +
                    format_bytes(plan.memory.total()) + "; give a smaller --emb, --batch or --context, or fewer " +
                    "runs (--heads values x --seeds).");
    }

    json table = json::array();
    for (const Variant& v : variants)
        table.push_back(variant_json(v, results, reports));
    if (a.has("dump-run"))
        write_run_dump(a.text("dump-run"), results.front());
    // After the results are out: a model that cannot be saved does not take the table with it.
    const auto save = [&] {
        if (a.has("save")) {
            if (results.front().diverged())
                throw Error("the run " + divergence_text(results.front()) + ", so no model was saved to " +
                            printable(a.text("save")) + ".");
            const json& row = table.front();
            // The first seed's model, with the spread over every seed in its metadata; no timing, so one seed
            // gives one file byte for byte (resources/models/induction-gpt-h4 is made so and checked).
            save_trained_model(a.text("save"), results.front(),
                               {{"val_loss", fixed(results.front().final_eval().loss, 4)},
                                {"val_accuracy", fixed(results.front().final_eval().accuracy, 4)},
                                {"seeds", seeds_text(seeds)},
                                {"val_loss_mean", fixed(row["val_loss_mean"].get<double>(), 4)},
                                {"val_loss_std", spread_meta(row["val_loss_std"])},
                                {"val_accuracy_mean", fixed(row["val_accuracy_mean"].get<double>(), 4)},
                                {"val_accuracy_std", spread_meta(row["val_accuracy_std"])}});
        }
    };
    const std::string how =
        measures_how(spec.eval_every()) + "; ms per step: wall time of forward, backward and AdamW, one engine thread";
    if (a.flag("json")) {
        json out = {{"task", spec.task},
                    {"vocab_size", spec.vocab},
                    {"context_length", spec.context},
                    {"emb_dim", spec.emb},
                    {"n_layers", spec.layers},
                    {"steps", spec.steps},
                    {"batch", spec.batch},
                    {"lr", spec.lr},
                    {"weight_decay", spec.weight_decay},
                    {"seeds", seeds},
                    {"threads", threads},
                    {"wall_seconds", wall},
                    {"how", how},
                    {"heads_how", heads_how()},
                    {"variants", table}};
        if (spec.window > 0) // only a windowed sweep names it, as its model files do
            out["window_size"] = spec.window;
        std::cout << json_text(out) << "\n";
        std::cout.flush();
        save();
        return 0;
    }
    std::cout << "task " << spec.task << ": vocab " << spec.vocab << ", context " << spec.context << ", emb "
              << spec.emb << ", " << spec.layers << " layers"
              << (spec.window > 0 ? ", a sliding window of " + std::to_string(spec.window) + " tokens" : std::string())
              << ", " << spec.steps << " steps of batch " << spec.batch << ", lr " << spec.lr << ", " << seeds.size()
              << " seed(s); " << fixed(wall, 1) << " s on " << threads << " threads\n";
    std::printf("%s  ms/step\n", table_heading().c_str());
    for (const json& r : table)
        if (r.contains("diverged"))
            std::printf("%s\n", table_columns(r).c_str());
        else
            std::printf("%s  %7.2f\n", table_columns(r).c_str(), r["ms_per_step_mean"].get<double>());
    std::fflush(stdout);
    for (const Variant& v : variants)
        for (std::size_t i : v.runs)
            if (results[i].diverged() &&
                table[static_cast<std::size_t>(&v - variants.data())].contains("val_loss_mean"))
                std::printf(
                    "(%s, seed %llu: %s; the row is the other seeds')\n", variant_name(v.heads, v.kv_groups).c_str(),
                    static_cast<unsigned long long>(results[i].settings.seed), divergence_text(results[i]).c_str());
    std::fflush(stdout);
    std::cout << "(" << how << ")\n";
    std::cout.flush();
    for (const Variant& v : variants) {
        const RunResult& r = results[v.runs.front()];
        if (r.diverged()) {
            std::printf("\n%s, seed %llu: %s\n", variant_name(v.heads, v.kv_groups).c_str(),
                        static_cast<unsigned long long>(r.settings.seed), divergence_text(r).c_str());
            continue;
        }
        std::printf("\n%s, seed %llu%s: held-out loss %.3f, accuracy %.3f\n",
                    variant_name(v.heads, v.kv_groups).c_str(), static_cast<unsigned long long>(r.settings.seed),
                    seeds.size() > 1 ? " (--json has every seed)" : "", r.final_eval().loss, r.final_eval().accuracy);
        print_heads(reports[v.runs.front()]);
    }
    std::fflush(stdout);
    std::cout << "(" << heads_how() << ")\n";
    std::cout.flush();
    save();
    return 0;
}

} // namespace cli
