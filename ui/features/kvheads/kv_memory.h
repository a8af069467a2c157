#pragma once
// The numbers behind the Memory section, all from core/designs/kv_cache.h: the chosen shape (a published config or the
// document's own call), the table's row per key/value head count, and the chart's line per count, KV-cache bytes at
// every context length from one token to the config's context_length. No widget and no QPainter: the painter and the
// tests read the same object.
#include "designs/kv_cache.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace attnlab::ui {

struct KvMemoryLine {
    std::int64_t kv_heads = 0;
    bool is_config = false;
    QString kind; // "MHA", "GQA" or "MQA" (core's kv_kind)
    // (context tokens, cache bytes) in increasing tokens; flat past a sliding window, as the core counts it.
    std::vector<std::pair<std::int64_t, std::int64_t>> points;
};

struct KvMemory {
    AttentionShape shape; // with the layers and kv heads asked for
    KvDtype dtype = KvDtype::BF16;
    std::int64_t context = 0;        // the table's context length
    std::vector<KvHeadsRow> rows;    // a row per divisor of num_heads, MHA first
    std::vector<KvMemoryLine> lines; // the same order
    QString error;                   // why there is nothing to count (an invalid call), one sentence
};

// Decimal units, as model cards and GPU memory are quoted: "1.07 GB", "512 MB", "64.0 kB", "96 B".
QString kvBytesText(double bytes);
// "4k", "128k", "1M" for the chart's context axis; below 1,000 the number itself.
QString kvTokensText(std::int64_t tokens);

// The context lengths a line is sampled at: powers of two from 1, the window (when set) and context_length.
std::vector<std::int64_t> kvSampleTokens(const AttentionShape& shape);
// Counts `shape` at `dtype` for a context of `context` tokens (clamped to 1..context_length); error set, nothing
// else, when the core refuses the shape.
KvMemory kvMemoryOf(const AttentionShape& shape, KvDtype dtype, std::int64_t context);

} // namespace attnlab::ui
