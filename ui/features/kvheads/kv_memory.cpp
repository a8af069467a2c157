#include "features/kvheads/kv_memory.h"

#include "model/job_failure.h"

#include <algorithm>
#include <set>

namespace attnlab::ui {

QString kvBytesText(double bytes)
{
    static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int unit = 0;
    while (bytes >= 1000 && unit < 5)
        bytes /= 1000, ++unit;
    const int digits = unit == 0 || bytes >= 100 ? 0 : bytes >= 10 ? 1 : 2;
    return QStringLiteral("%1 %2").arg(bytes, 0, 'f', digits).arg(QLatin1String(kUnits[unit]));
}

QString kvTokensText(std::int64_t tokens)
{
    if (tokens >= (1 << 20) && tokens % (1 << 20) == 0)
        return QStringLiteral("%1M").arg(tokens >> 20);
    if (tokens >= 1024 && tokens % 1024 == 0)
        return QStringLiteral("%1k").arg(tokens >> 10);
    return QString::number(tokens);
}

std::vector<std::int64_t> kvSampleTokens(const AttentionShape& shape)
{
    std::set<std::int64_t> at;
    const std::int64_t last = std::max<std::int64_t>(1, shape.context_length);
    for (std::int64_t t = 1; t < last; t *= 2)
        at.insert(t);
    if (shape.sliding_window && *shape.sliding_window < last)
        at.insert(*shape.sliding_window); // where the line turns flat
    at.insert(last);
    return {at.begin(), at.end()};
}

KvMemory kvMemoryOf(const AttentionShape& shape, KvDtype dtype, std::int64_t context)
{
    KvMemory m;
    m.shape = shape;
    m.dtype = dtype;
    m.context = std::clamp<std::int64_t>(context, 1, std::max<std::int64_t>(1, shape.context_length));
    try {
        check_shape(shape);
        m.rows = kv_heads_rows(shape, dtype, 1, m.context);
        const std::vector<std::int64_t> tokens = kvSampleTokens(shape);
        for (const KvHeadsRow& row : m.rows) {
            KvMemoryLine line;
            line.kv_heads = row.kv_heads;
            line.is_config = row.is_config;
            line.kind = QString::fromStdString(kv_kind(shape.num_heads, row.kv_heads));
            const AttentionShape s = with_kv_heads(shape, row.kv_heads);
            for (std::int64_t t : tokens)
                line.points.emplace_back(t, kv_cache_bytes(s, dtype, 1, t));
            m.lines.push_back(std::move(line));
        }
    } catch (...) {
        m.rows.clear();
        m.lines.clear();
        m.error = currentFailureSentence();
    }
    return m;
}

} // namespace attnlab::ui
