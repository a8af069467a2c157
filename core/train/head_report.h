#pragma once
// What each head of a trained GPTModel does on its task's held-out sequences, and what it is worth.
//
// For one head on one sequence x of T tokens, with attention weights w (T x T, causal, rows sum to 1, as
// GptNet keeps them in eval mode), at a query position t:
//   previous   w[t, t-1], the share on the previous token
//   first      w[t, 0], the share on the first token
//   self       w[t, t], the share on the current token
//   entropy    -sum_s w[t, s] ln w[t, s], nats (0 ln 0 = 0)
//   induction  sum of w[t, s] over S(t) = { s : 1 <= s <= t-1, x[s-1] = x[t] }, the share on the tokens right
//              after an earlier occurrence of the current token (s = t, the token itself, is left to self)
// previous, first, self and entropy are averaged over the query positions t = 1 .. T-1 of every sequence
// (t = 0 can only attend to itself); previous, first and entropy are head_measures' (gpt/head_measures.h).
// induction is averaged over the query positions, of all sequences together, where S(t) is not empty, and is
// 0 when there is none (induction_positions says how many there were).
//
// A head's role comes only from kHeadRoleRule. Its worth is the held-out loss and accuracy with its output
// zeroed: its columns of out_proj's weight set to 0, the same as zeroing its slice of the context vector
// before out_proj (Michel et al. 2019), through evaluate().
//
// That ablation is exact, so a head of block l must run the blocks after it again: heads x (layers + 1) / 2
// passes of the held-out set in all, quadratic in the layers (a 64-layer model's is 4 times a 32-layer one's).
// A finished run's report therefore makes it only when it costs no more than a small floor (kAblationFloor
// passes) or than the training it reports on did (a training step is about 3 forwards of its batch); past that
// the report gives the shares and roles, linear in the layers, and says why the ablation was left out
// (Ablation::All asks for it anyway, within the sweep's time cap).
#include "train/gpt_params.h"
#include "train/tasks.h"
#include "train/train_run.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnlab::train {

struct HeadShares {
    double previous = 0.0, first = 0.0, self = 0.0, entropy = 0.0, induction = 0.0;
    std::size_t positions = 0;           // query positions averaged for previous, first, self, entropy
    std::size_t induction_positions = 0; // query positions with an earlier occurrence of their token
};

enum class HeadRole { Other, PreviousToken, Induction, FirstToken, Self };

// The rule, as the CLI and the window print it; head_role applies it, the first clause that holds wins.
inline constexpr double kRoleShare = 0.5;
inline constexpr const char* kHeadRoleRule =
    "role: previous-token head when at least 0.5 of its attention is on t-1; else induction head when its "
    "induction score is at least 0.5; else first-token head when at least 0.5 is on token 0; else self head "
    "when at least 0.5 is on t itself; else none";
HeadRole head_role(const HeadShares& shares);
const char* role_name(HeadRole role); // "previous-token", "induction", "first-token", "self", "none"

// Per head, the shares of attention weights laid out as GptNet::attention_weights keeps them (batch x heads x
// tokens x tokens) on the sequences `ids` (batch x tokens).
std::vector<HeadShares> head_shares(const std::vector<float>& weights, const std::vector<std::int64_t>& ids,
                                    std::size_t batch, std::size_t heads, std::size_t tokens);

struct HeadStats {
    std::int64_t layer = 0, head = 0;
    HeadShares shares;
    HeadRole role = HeadRole::Other;
    EvalPoint ablated; // held-out loss and accuracy with this head's output zeroed
};

struct HeadReport {
    EvalPoint intact;             // the model as trained, on the same sequences
    std::vector<HeadStats> heads; // layer by layer, head by head
    bool ablated = true;          // false: every HeadStats::ablated is left 0 ...
    std::string skipped;          // ... and this sentence says why
};

// When a finished run's report zeroes each head in turn: Auto by the rule above, All always, None never.
enum class Ablation { Auto, All, None };
inline constexpr double kAblationFloor = 16.0; // passes of the held-out set an ablation may always take
// Passes of the held-out set (`held_sequences` of them) that zeroing every head of `settings`' model takes, and
// that its training took (3 per step's batch, as forward and backward).
double ablation_passes(const RunSettings& settings);
double training_passes(const RunSettings& settings, std::size_t held_sequences);
// Empty when `policy` lets the run's report ablate its heads; else the sentence saying why not, with the counts.
std::string ablation_skipped(const RunSettings& settings, std::size_t held_sequences, Ablation policy);

// Every head of every layer of `params` (gpt_layout order), on held-out sequences of a task; ids are checked
// against the vocabulary by the caller, as for GptNet.
// `chunk`: sequences a forward takes at a time (train_run.h's eval_chunk); the numbers do not depend on it
// beyond the order of float sums. `threads` share the chunks' ablations, each through its own net, the numbers
// the same to the bit.
// `ablate` false: the shares and roles only, `skipped` left empty for the caller to say why.
HeadReport head_report(const GptLayout& layout, const std::vector<float>& params, const Batch& held_out,
                       std::size_t chunk = kEvalChunk, int threads = 1, bool ablate = true);
HeadReport head_report(const GptLayout& layout, const std::vector<float>& params, const Task& task);
// A finished run, on its task's held-out sequences, in the run's own evaluation chunks, ablated as `policy` says.
HeadReport head_report(const RunResult& run, int threads = 1, Ablation policy = Ablation::Auto);
// One report per run, the runs in parallel on `threads` threads (train/parallel.h); a run its cancel flag
// stopped gets an empty report, since its weights are no trained model; with fewer runs than threads, each report's
// chunks are shared by threads / runs threads. `on_done`, when given, is called on the
// report's thread as each one ends (several threads may call it at once).
std::vector<HeadReport> head_reports(const std::vector<RunResult>& runs, int threads,
                                     const std::function<void()>& on_done = {}, Ablation policy = Ablation::Auto);

} // namespace attnlab::train
