#include "features/tradeoffs/sweep_reading.h"

#include <QObject>

#include <QStringList>

#include <algorithm>

namespace attnlab::ui {

namespace {

constexpr double kLeastGap = 0.02; // accuracy: below it, seeds of one num_heads differ as much

QString heads(std::int64_t h)
{
    return h == 1 ? QObject::tr("1 head") : QObject::tr("%1 heads").arg(h);
}

QString acc(const SweepRow& r)
{
    return QStringLiteral("%1").arg(r.accuracy.mean, 0, 'f', 2);
}

bool clearlyBelow(const SweepRow& row, const SweepRow& best)
{
    const double gap = std::max({kLeastGap, 2 * row.accuracy.std, 2 * best.accuracy.std});
    return best.accuracy.mean - row.accuracy.mean > gap;
}

QString readRows(const std::vector<SweepRow>& rows)
{
    const auto best = std::max_element(rows.begin(), rows.end(), [](const SweepRow& a, const SweepRow& b) {
        return a.accuracy.mean < b.accuracy.mean;
    });
    QString text = best->seedsDone > 1
                       ? QObject::tr("<b>Best:</b> %1 (head_dim %2), held-out accuracy %3 ± %4.")
                             .arg(heads(best->heads))
                             .arg(best->headDim)
                             .arg(acc(*best))
                             .arg(best->accuracy.std, 0, 'f', 2)
                       : QObject::tr("<b>Best:</b> %1 (head_dim %2), held-out accuracy %3 from one seed (a spread "
                                     "over seeds needs two or more).")
                             .arg(heads(best->heads))
                             .arg(best->headDim)
                             .arg(acc(*best));
    if (rows.size() < 2)
        return text + QObject::tr(" Compare two head counts or more to see the trade-off.");
    const SweepRow &few = rows.front(), &many = rows.back();
    const bool fewWorse = &few != &*best && clearlyBelow(few, *best);
    const bool manyWorse = &many != &*best && clearlyBelow(many, *best);
    if (fewWorse && manyWorse)
        text += QObject::tr(" <b>An inverted U:</b> %1 with %2, %3 with %4, %5 with %6.")
                    .arg(acc(few), heads(few.heads), acc(*best), heads(best->heads), acc(many), heads(many.heads));
    if (fewWorse)
        text += QObject::tr(" <b>Fewer heads fall behind:</b> with %1 per block each layer has one attention "
                            "pattern per token to spend; the heads below show whether the layers still split the "
                            "work (a previous-token head in layer 0, an induction head in layer 1), and the ablation "
                            "columns what each head is worth.")
                    .arg(heads(few.heads));
    if (manyWorse && many.headDim == 1)
        text += QObject::tr(" <b>head_dim 1 is too narrow:</b> each query and key is one number, so every query "
                            "ranks the keys in the same order (or its reverse) and no head can point each token at "
                            "its own predecessor, the previous-token pattern copying needs.");
    else if (manyWorse)
        text += QObject::tr(" <b>Narrow heads fall behind:</b> at head_dim %1 each head's queries and keys have only "
                            "%1 numbers to tell positions apart.")
                    .arg(many.headDim);
    if (!fewWorse && !manyWorse && best->seedsDone > 1)
        text += QObject::tr(" Every head count is within twice the spread over seeds (and %1) of the best: at these "
                            "settings the number of heads changes the accuracy little.")
                    .arg(kLeastGap);
    else if (!fewWorse && !manyWorse)
        text += QObject::tr(" Every head count is within %1 of the best; from one seed each, train more seeds to "
                            "know whether that gap is larger than the spread between runs.")
                    .arg(kLeastGap);
    if (few.msPerStep > 0 && many.msPerStep > 0)
        text += QObject::tr(" A step took %1 ms with %2 and %3 ms with %4.")
                    .arg(few.msPerStep, 0, 'f', 2)
                    .arg(heads(few.heads))
                    .arg(many.msPerStep, 0, 'f', 2)
                    .arg(heads(many.heads));
    return text;
}

QString kvHeads(std::int64_t g)
{
    return g == 1 ? QObject::tr("1 key/value head") : QObject::tr("%1 key/value heads").arg(g);
}

QString kvKind(std::int64_t heads, std::int64_t g)
{
    return g == heads ? QObject::tr(" (MultiHeadAttention)") : g == 1 ? QObject::tr(" (multi-query)") : QString();
}

// "an eighth", "a quarter", "half": the share of the cache the fewest key/value heads keep.
QString share(std::int64_t fewer, std::int64_t more)
{
    if (fewer * 2 == more)
        return QObject::tr("half");
    if (fewer * 4 == more)
        return QObject::tr("a quarter");
    if (fewer * 8 == more)
        return QObject::tr("an eighth");
    return QObject::tr("%1/%2").arg(fewer).arg(more);
}

// The rows of one num_heads over its key/value head counts: the most against the fewest, accuracy against the
// KV cache a token adds, and whether the gap is larger than the seeds' spread.
QString readKvRows(const std::vector<const SweepRow*>& rows)
{
    const auto byKv = [](const SweepRow* a, const SweepRow* b) { return a->kvGroups < b->kvGroups; };
    const SweepRow& most = **std::max_element(rows.begin(), rows.end(), byKv);
    const SweepRow& fewest = **std::min_element(rows.begin(), rows.end(), byKv);
    const SweepRow& best = **std::max_element(rows.begin(), rows.end(), [](const SweepRow* a, const SweepRow* b) {
        return a->accuracy.mean < b->accuracy.mean;
    });
    QString text = QObject::tr("<b>%1:</b> with %2%3 held-out accuracy %4 at %5 bytes of KV cache per token; with %6%7 "
                               "%8 at %9 bytes, %10 of the cache.")
                       .arg(heads(most.heads), kvHeads(most.kvGroups), kvKind(most.heads, most.kvGroups), acc(most))
                       .arg(most.kvBytesPerToken)
                       .arg(kvHeads(fewest.kvGroups), kvKind(fewest.heads, fewest.kvGroups), acc(fewest))
                       .arg(fewest.kvBytesPerToken)
                       .arg(share(fewest.kvGroups, most.kvGroups));
    const bool seeds = most.seedsDone > 1 && fewest.seedsDone > 1;
    if (clearlyBelow(fewest, best))
        text += seeds ? QObject::tr(" Sharing keys and values cost accuracy here, by more than twice the spread over "
                                    "seeds.")
                      : QObject::tr(" Sharing keys and values cost accuracy here, from one seed each (train more "
                                    "seeds to know the spread).");
    else
        text += seeds ? QObject::tr(" Every key/value head count is within twice the spread over seeds (and %1) of the "
                                    "best: at these settings sharing costs little.")
                            .arg(kLeastGap)
                      : QObject::tr(" The fewest key/value heads are within %1 of the best; from one seed each, train "
                                    "more seeds to know whether that gap is larger than the spread between runs.")
                            .arg(kLeastGap);
    if (&best != &most && &best != &fewest)
        text += QObject::tr(" The best was %1 (%2).").arg(kvHeads(best.kvGroups), acc(best));
    return text;
}

// A sweep over key/value heads: one reading per num_heads that compares two counts or more.
QString readKvSweep(const std::vector<SweepRow>& rows)
{
    QStringList parts;
    std::vector<std::int64_t> done;
    for (const SweepRow& r : rows) {
        if (std::find(done.begin(), done.end(), r.heads) != done.end())
            continue;
        done.push_back(r.heads);
        std::vector<const SweepRow*> same;
        for (const SweepRow& o : rows)
            if (o.heads == r.heads)
                same.push_back(&o);
        if (same.size() > 1)
            parts << readKvRows(same);
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace

QString sweepReading(const SweepResults& results, const std::vector<SweepRow>& rows)
{
    const QStringList diverged = sweepDivergences(results);
    QString text;
    if (!rows.empty() && sweepGrouped(results.settings))
        text = readKvSweep(rows);
    if (!rows.empty() && text.isEmpty())
        text = readRows(rows);
    if (results.cancelled && !rows.empty())
        text += QObject::tr(" <i>The sweep was stopped: only the seeds that finished count.</i>");
    // A run whose loss became NaN or infinite has no numbers to show: what happened, and what to try, is said instead.
    for (const QString& line : diverged)
        text += QStringLiteral("%1<b>%2</b>")
                    .arg(text.isEmpty() ? QString() : QStringLiteral("<br>"), line.toHtmlEscaped());
    return text;
}

} // namespace attnlab::ui
