#pragma once
// A sweep trained in the app: what the student asked for (task, width, layers, the num_heads and num_kv_groups
// compared, seeds, steps, batch, rate), what each run reached (its held-out curve, steps taken, time per step) and
// the table read from them. The runs come from core/train; this only keeps and summarises them, so the
// page, the session file and the tests share one value.
#include "train/head_report.h"
#include "train/sweep.h"
#include "train/sweep_spec.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <limits>
#include <string>
#include <vector>

namespace attnlab::ui {

struct SweepSettings {
    std::string task = "induction";
    std::int64_t vocab = 16, context = 32; // the task's own, not edited on the page
    std::int64_t emb = 32, layers = 2;
    std::vector<std::int64_t> heads; // empty: every divisor of emb, down to head_dim 1
    // num_kv_groups compared at every num_heads (GroupedQueryAttention), each dividing every head count; empty: as
    // many key/value heads as heads, the book's MultiHeadAttention. Core's SweepSpec::kv_groups.
    std::vector<std::int64_t> kvGroups;
    int seeds = 2;
    std::int64_t steps = 2000, batch = 64;
    double lr = 3e-3, weightDecay = 0.01;
    bool operator==(const SweepSettings&) const = default;

    train::SweepSpec spec() const;              // the same request as core's sweep, which expands it
    std::vector<std::int64_t> headList() const; // heads, or every divisor of emb
    // The key/value head counts trained at `heads`: kvGroups, or {heads} (MultiHeadAttention).
    std::vector<std::int64_t> kvGroupList(std::int64_t heads) const;
    std::int64_t evalEvery() const; // as the CLI measures: twenty times a run, at most every 100 steps
};

// The task's defaults (core/train/tasks.h), with every divisor of its width.
SweepSettings sweepDefaults(const std::string& task);
// "1, 2, 4" -> {1, 2, 4}; blank -> {} (every divisor). nullopt and *error set to one sentence otherwise.
std::optional<std::vector<std::int64_t>> parseHeadList(const QString& text, QString* error);
// "8, 4, 2, 1" -> {8, 4, 2, 1}; blank -> {} (as many as the heads). nullopt and *error set to one sentence otherwise.
std::optional<std::vector<std::int64_t>> parseKvGroupList(const QString& text, QString* error);
// One RunSettings per num_heads x num_kv_groups x seed, in that order, each checked by core (SweepSpec::expand):
// throws Error with core's sentence (check_run) for the first that could not train.
std::vector<train::RunSettings> sweepRuns(const SweepSettings& settings);
// Throws what sweepRuns would, without making the runs (core's SweepSpec::check): the one validation the CLI's
// train, the window's Train and a session file's sweep all go through.
void checkSweep(const SweepSettings& settings);

struct SweepRun {
    std::int64_t heads = 0;
    std::uint64_t seed = 0;
    std::vector<train::EvalPoint> evals; // held-out loss and accuracy, every evalEvery() steps and at the end
    std::int64_t stepsDone = 0;
    double msPerStep = 0.0;
    bool finished = false; // all its steps were taken; a cancelled run keeps its curve but is left out of the table
    // What each head of the finished model does on held-out sequences, and its ablated loss and accuracy
    // (core's head_report); empty for a cancelled run. The role is recomputed from the shares by core's rule.
    std::vector<train::HeadStats> report;
    // Empty when each head's ablated loss and accuracy were measured; else core's sentence saying why the report
    // left them out (head_report.h: the ablation is quadratic in the layers), and the ablated numbers are 0.
    std::string ablationSkipped;
    // The finished model's weights (train/gpt_params.h's layout), so it can be studied and saved; null for a
    // cancelled run, and for a run read back from a session file that kept no model of it (files from before models
    // were kept, a model beyond the session's allowance, or one refused: see modelProblem).
    std::shared_ptr<const std::vector<float>> params;
    // Why the model a session file kept for this run was refused, one sentence naming the run; empty otherwise.
    QString modelProblem;
    // The step whose loss was NaN or infinite (core's RunResult::diverged_at), 0 when none: the run stopped there,
    // keeps its curve up to it, and is left out of the table's numbers; lossBefore is the last finite training loss.
    std::int64_t divergedAt = 0;
    double lossBefore = std::numeric_limits<double>::quiet_NaN();
    // num_kv_groups: the key/value heads each block has, each shared by heads / kvHeads() query heads; 0 (as core's
    // GptConfig::n_kv_groups) for as many as the heads, the book's MultiHeadAttention.
    std::int64_t kvGroups = 0;
    std::int64_t kvHeads() const { return kvGroups > 0 ? kvGroups : heads; }
};

struct SweepResults {
    SweepSettings settings;
    std::vector<SweepRun> runs; // sweepRuns' order
    double wallSeconds = 0.0;
    bool cancelled = false;
    bool operator==(const SweepResults& o) const;
};

// One row of the table: the finished seeds of one num_heads x num_kv_groups.
struct SweepRow {
    std::int64_t heads = 0, headDim = 0;
    std::int64_t kvGroups = 0;        // key/value heads per block (= heads: MultiHeadAttention)
    std::int64_t kvBytesPerToken = 0; // the KV cache a generated token adds, float32 as trained (core's kv_cache.h)
    int seedsDone = 0, seedsAsked = 0, seedsDiverged = 0;
    train::Spread loss, accuracy; // final held-out values, mean and sample std over the finished seeds
    double stepsTo90 = 0.0;       // mean over seeds of RunResult::steps_to_90
    double msPerStep = 0.0;       // mean over seeds
};
// "induction-h4-seed0.safetensors", "induction-h8-kv2-seed0.safetensors" for 8 heads sharing 2 key/value heads: the
// file a run is saved or studied as (its name is the model's name in every tab).
QString sweepRunFileName(const SweepResults& results, int runIndex);
// "8 heads, 2 key/value heads": a variant as the page, the picker and the reading name it; "4 heads" when it is the
// book's MultiHeadAttention in a sweep that does not compare key/value heads (`grouped` false).
QString sweepVariantName(std::int64_t heads, std::int64_t kvGroups, bool grouped);
// Whether the sweep compares key/value head counts (kvGroups given), so names say them.
bool sweepGrouped(const SweepSettings& settings);
// The index in `results.runs` of the run of that variant and seed, -1 when none.
int sweepRunIndex(const SweepResults& results, std::int64_t heads, std::int64_t kvGroups, std::uint64_t seed);

// Rows for the num_heads x num_kv_groups with at least one finished seed, in the sweep's order.
std::vector<SweepRow> sweepTable(const SweepResults& results);
// "4 heads, seed 0: diverged at step 3 (loss was 2.945 before): try a learning rate of 0.003 or lower", one per
// diverged run, in the sweep's order.
QStringList sweepDivergences(const SweepResults& results);

// The "sweep" object of a session file; nullopt and *error set to one sentence when it is not one.
QJsonObject sweepToJson(const SweepResults& results);
std::optional<SweepResults> sweepFromJson(const QJsonObject& object, QString* error);

} // namespace attnlab::ui
