// `pool FILE... | DIR`: the class's seeds in one table. Each student trains the same experiment with their own
// --seed on their own laptop and hands in `train --json`; pool checks the files are one experiment, takes every
// seed once and prints train's table (cli_train_table.h) over all of them, as `train --seeds N` would for the
// same seeds: a run is the same, bit for bit, for a seed on any machine with the same build.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"
#include "cli/cli_pool_read.h"
#include "cli/cli_train_heads.h"
#include "cli/cli_train_table.h"

#include "tensor/error.h"
#include "text/utf8.h"
#include "train/sweep_spec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using attnlab::Error;

std::string file_named(const std::string& path)
{
    return "'" + attnlab::printable(path, 120) + "'";
}

// The first setting `doc` does not share with the first file, in one sentence; nothing when it is the same.
void require_same_experiment(const TrainDocument& first, const TrainDocument& doc)
{
    const std::string lead = file_named(doc.path) + " is another experiment than " + file_named(first.path) + ": ";
    const std::string tail = "; pool takes the files of one train command, each run with its own --seed.";
    for (std::size_t i = 0; i < first.settings.size(); ++i) {
        const PoolSetting &a = first.settings[i], &b = doc.settings[i];
        if (a.value != b.value) { // "--steps 200", "--task recall", or "without --window" (0: none given)
            const auto said = [](const PoolSetting& p) {
                if (std::string(p.key) == "window_size" && p.value == 0)
                    return std::string("without --window");
                const std::string value = p.value.is_string() ? p.value.get<std::string>() : p.value.dump();
                return "with " + std::string(p.option) + " " + attnlab::printable(value, 40);
            };
            throw Error(file_named(doc.path) + " was trained " + said(b) + " and " + file_named(first.path) + " " +
                        said(a) + tail);
        }
    }
    const auto name = [](const PoolVariant& v) { return variant_name(v.heads, v.kv_groups); };
    for (std::size_t i = 0; i < std::min(first.variants.size(), doc.variants.size()); ++i)
        if (first.variants[i].heads != doc.variants[i].heads ||
            first.variants[i].kv_groups != doc.variants[i].kv_groups)
            throw Error(lead + "its variant " + std::to_string(i + 1) + " is " + name(doc.variants[i]) + ", not " +
                        name(first.variants[i]) + " (--heads, --kv-groups)" + tail);
    if (first.variants.size() != doc.variants.size())
        throw Error(lead + "it has " + std::to_string(doc.variants.size()) + " variants, not " +
                    std::to_string(first.variants.size()) + " (--heads, --kv-groups)" + tail);
}

// Two files' entries for one seed: the same run when every number but the laptop's time per step is the same,
// whatever order a tool that re-saved the file left the keys in (compared as unordered objects).
bool same_run(json a, json b)
{
    a.erase("ms_per_step");
    b.erase("ms_per_step");
    return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

struct HeldSeed {
    PoolSeed seed;
    std::string file;
};

// "0-2,5,7-9": a class's seeds are mostly runs of numbers.
std::string seed_ranges(const std::vector<std::uint64_t>& seeds)
{
    std::string out;
    for (std::size_t i = 0; i < seeds.size();) {
        std::size_t j = i;
        while (j + 1 < seeds.size() && seeds[j + 1] == seeds[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(seeds[i]);
        if (j > i)
            out += (j == i + 1 ? "," : "-") + std::to_string(seeds[j]);
        i = j + 1;
    }
    return out;
}

json pooled_row(const PoolVariant& v, const std::map<std::uint64_t, HeldSeed>& held)
{
    std::vector<double> loss, acc, to90;
    json seeds = json::array();
    int diverged = 0;
    std::string first_divergence;
    for (const auto& [number, h] : held) { // by seed, as train orders its runs: the same sums, the same digits
        seeds.push_back(h.seed.entry);
        if (h.seed.diverged) {
            if (diverged++ == 0)
                first_divergence = attnlab::printable(h.seed.entry["diverged"].get<std::string>(), 200);
            continue;
        }
        loss.push_back(h.seed.loss);
        acc.push_back(h.seed.accuracy);
        to90.push_back(h.seed.steps_to_90);
    }
    json row = {{"n_heads", v.heads},         {"kv_groups", v.kv_groups},
                {"head_dim", v.head_dim},     {"kv_bytes_per_token", v.kv_bytes_per_token},
                {"seeds_diverged", diverged}, {"seeds", seeds}};
    if (loss.empty())
        row["diverged"] = first_divergence;
    else
        add_seed_means(row, loss, acc, to90);
    return row;
}

} // namespace

int cmd_pool(const std::vector<std::string>& argv)
{
    std::size_t first_option = 0; // the files come first, then the options
    while (first_option < argv.size() && !argv[first_option].starts_with("--"))
        ++first_option;
    const std::vector<std::string> inputs(argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(first_option));
    const Args a({argv.begin() + static_cast<std::ptrdiff_t>(first_option), argv.end()}, {}, {"json"});
    if (inputs.empty())
        throw UsageError("pool needs the students' train --json files or a folder of them: attention-lab-cli pool "
                         "FILE... | DIR [--json].");
    const std::vector<std::string> files = pool_input_files(inputs);

    // One file at a time, keeping only its seeds: a class's files are never all in memory at once.
    TrainDocument first;
    std::vector<std::map<std::uint64_t, HeldSeed>> held;
    std::size_t repeats = 0; // seeds a file held that an earlier one had, counted once for all their variants
    for (const std::string& file : files) {
        std::set<std::uint64_t> repeated;
        TrainDocument doc = read_train_document(file);
        if (held.empty())
            held.resize(doc.variants.size());
        else
            require_same_experiment(first, doc);
        for (std::size_t i = 0; i < doc.variants.size(); ++i)
            for (PoolSeed& s : doc.variants[i].seeds) {
                const auto it = held[i].find(s.seed);
                if (it == held[i].end()) {
                    held[i].emplace(s.seed, HeldSeed{std::move(s), file});
                    continue;
                }
                if (!same_run(it->second.seed.entry, s.entry))
                    throw Error(file_named(it->second.file) + " and " + file_named(file) + " both hold seed " +
                                std::to_string(s.seed) + " of " +
                                variant_name(doc.variants[i].heads, doc.variants[i].kv_groups) +
                                ", with different results; one seed trains the same run on every machine with one "
                                "build of attention-lab-cli, so one file was changed or made by another build: "
                                "keep the one you trust, or have the student train again.");
                repeated.insert(s.seed);
            }
        repeats += repeated.size();
        if (first.path.empty()) {
            for (PoolVariant& v : doc.variants)
                v.seeds.clear();
            first = std::move(doc);
        }
    }

    std::vector<std::uint64_t> seeds;
    for (const auto& [number, h] : held.front())
        seeds.push_back(number);
    json table = json::array();
    for (std::size_t i = 0; i < first.variants.size(); ++i)
        table.push_back(pooled_row(first.variants[i], held[i]));
    attnlab::train::SweepSpec spec;
    spec.steps = first.setting("steps");
    const std::string how = measures_how(spec.eval_every()) +
                            "; pooled over the files' seeds, each seed once (a seed handed in twice with the same "
                            "results counted once); no ms per step: each was timed on its own laptop";
    if (a.flag("json")) {
        json out;
        for (const PoolSetting& s : first.settings)
            if (std::string(s.key) != "window_size" || s.value != 0) // train names a window only when there is one
                out[s.key] = s.value;
        out.update({{"seeds", seeds},
                    {"files", files.size()},
                    {"repeated_seeds", repeats},
                    {"how", how},
                    {"heads_how", heads_how()},
                    {"variants", table}});
        std::cout << json_text(out) << "\n";
        return 0;
    }
    const std::int64_t window = first.setting("window_size");
    std::cout << "task " << attnlab::printable(first.value("task").get<std::string>(), 40) << ": vocab "
              << first.setting("vocab_size") << ", context " << first.setting("context_length") << ", emb "
              << first.setting("emb_dim") << ", " << first.setting("n_layers") << " layers"
              << (window > 0 ? ", a sliding window of " + std::to_string(window) + " tokens" : std::string()) << ", "
              << first.setting("steps") << " steps of batch " << first.setting("batch") << ", lr "
              << first.value("lr").get<double>() << ", " << seeds.size() << " seed(s) (" << seed_ranges(seeds)
              << ") from " << files.size() << " file(s)"
              << (repeats ? "; " + std::to_string(repeats) + " repeated seed(s) counted once" : std::string()) << "\n";
    std::printf("%s  seeds\n", table_heading().c_str());
    for (const json& r : table)
        if (r.contains("diverged"))
            std::printf("%s\n", table_columns(r).c_str());
        else
            std::printf("%s  %5zu\n", table_columns(r).c_str(), r["seeds_finished"].get<std::size_t>());
    for (std::size_t i = 0; i < table.size(); ++i)
        for (const auto& [number, h] : held[i])
            if (h.seed.diverged && table[i].contains("val_loss_mean"))
                std::printf("(%s, seed %llu: %s; the row is the other seeds')\n",
                            variant_name(first.variants[i].heads, first.variants[i].kv_groups).c_str(),
                            static_cast<unsigned long long>(number),
                            attnlab::printable(h.seed.entry["diverged"].get<std::string>(), 200).c_str());
    std::fflush(stdout);
    std::cout << "(" << how << ")\n";
    return 0;
}

} // namespace cli
