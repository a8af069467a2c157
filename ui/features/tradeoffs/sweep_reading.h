#pragma once
// What a sweep's table says, in words written from its numbers: which num_heads did best, whether the
// fewest heads and the narrowest heads fell clearly below it (by more than twice the spread over seeds
// and 0.02), and why each can: fewer heads give each layer one pattern per token to spend, and at head_dim 1 a head's
// scores rank the keys in one order for every query, so it cannot point each token at its predecessor.
// A sweep over key/value heads (num_kv_groups given) is read per num_heads instead: the most key/value heads against
// the fewest, each row's accuracy beside the KV cache a token adds, and whether the gap is beyond the seeds' spread.
#include "features/tradeoffs/sweep_results.h"

#include <QString>

namespace attnlab::ui {

QString sweepReading(const SweepResults& results, const std::vector<SweepRow>& rows);

} // namespace attnlab::ui
