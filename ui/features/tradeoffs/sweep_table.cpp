#include "features/tradeoffs/sweep_table.h"

#include <QHeaderView>
#include <QScrollBar>

#include <algorithm>

namespace attnlab::ui {

SweepTable::SweepTable(QWidget* parent) : QTableWidget(parent)
{
    setColumnCount(9);
    // Two-line headers, each column as wide as its header or its numbers: stretched to a projector's narrow
    // page beside the lessons dock, the headers were cut ("eld-out los"); a table wider than that scrolls. What a
    // variant is and what it reached come first: on a projector the last columns are the ones scrolled out of view.
    setHorizontalHeaderLabels({tr("num_heads"), tr("key/value\nheads"), tr("head_dim"), tr("KV bytes\nper token"),
                               tr("held-out\naccuracy"), tr("held-out\nloss"), tr("seeds"),
                               tr("steps to 90%\nof its best"), tr("ms per\nstep")});
    const QStringList tips = {
        tr("Query heads per attention block; every block of the model has this many."),
        tr("num_kv_groups: the key/value heads per block, each shared by num_heads / num_kv_groups query heads "
           "(GroupedQueryAttention); as many as the heads is the book's MultiHeadAttention, 1 is multi-query "
           "attention."),
        tr("emb / num_heads: the width of each head's queries, keys and values."),
        tr("What generating one more token adds to the KV cache of this model: a key and a value row of "
           "num_kv_groups × head_dim float32 numbers in every layer, 2 × layers × num_kv_groups × head_dim × 4 bytes."),
        tr("Share of the task's held-out scored positions whose most likely token is the target, after the last "
           "step; mean ± sample std over the finished seeds."),
        tr("Mean cross-entropy over the task's held-out positions after the last step, in eval mode; mean ± "
           "sample std over the finished seeds."),
        tr("Seeds that finished all their steps, of those asked for; only they count in the row."),
        tr("The first held-out measurement reaching 90% of that run's own best accuracy (not 90% accuracy: a run "
           "that learns little reaches its own best soon); mean over seeds."),
        tr("Wall time of one step's forward, backward and AdamW on one engine thread, evaluations left out; mean "
           "over seeds. The runs train side by side, one per core."),
    };
    for (int c = 0; c < tips.size(); ++c)
        horizontalHeaderItem(c)->setToolTip(tips[c]);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setTabKeyNavigation(false);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // fitHeightToRows: every row shows
    setAccessibleName(tr("Sweep results per num_heads and key/value heads"));
    setAccessibleDescription(
        tr("One row per num_heads and num_kv_groups with a finished seed: KV cache bytes per token, held-out loss "
           "and accuracy, steps to 90% of the best accuracy, ms per step; each column's header says how it was "
           "obtained."));
    fitHeightToRows();
}

// "0.881 ± 0.012"; from one seed "0.881 (1 seed)": a spread needs two runs, and one run's is unknown, not 0.
QString SweepTable::meanStd(const train::Spread& s, int seeds)
{
    return seeds > 1 ? QStringLiteral("%1 ± %2").arg(s.mean, 0, 'f', 3).arg(s.std, 0, 'f', 3)
                     : tr("%1 (1 seed)").arg(s.mean, 0, 'f', 3);
}

void SweepTable::setRows(const std::vector<SweepRow>& rows)
{
    setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < rowCount(); ++r) {
        const SweepRow& w = rows[static_cast<std::size_t>(r)];
        const QStringList cells = {
            QString::number(w.heads),
            QString::number(w.kvGroups),
            QString::number(w.headDim),
            QString::number(w.kvBytesPerToken),
            meanStd(w.accuracy, w.seedsDone),
            meanStd(w.loss, w.seedsDone),
            w.seedsDiverged ? tr("%1 of %2, %3 diverged").arg(w.seedsDone).arg(w.seedsAsked).arg(w.seedsDiverged)
                            : QStringLiteral("%1 of %2").arg(w.seedsDone).arg(w.seedsAsked),
            QString::number(w.stepsTo90, 'f', 0),
            QString::number(w.msPerStep, 'f', 2),
        };
        for (int c = 0; c < cells.size(); ++c) {
            auto* it = new QTableWidgetItem(cells[c]);
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            it->setToolTip(horizontalHeaderItem(c)->toolTip());
            setItem(r, c, it);
        }
    }
    fitHeightToRows();
}

// As tall as its rows: the page around it scrolls, where a table squeezed by the curves above it hid its last
// rows behind a scroll bar of its own (32 heads, the row the lesson reads, was out of sight).
void SweepTable::fitHeightToRows()
{
    resizeRowsToContents();
    int height = horizontalHeader()->sizeHint().height() + 2 * frameWidth();
    for (int r = 0; r < rowCount(); ++r)
        height += rowHeight(r);
    if (rowCount() == 0)
        height += verticalHeader()->defaultSectionSize(); // room for the first row, so the table reads as one
    if (columnsWiderThanView())
        height += horizontalScrollBar()->sizeHint().height(); // a table wider than the page scrolls sideways
    setFixedHeight(height);                                   // an unchanged height is no change to Qt
}

// The columns' own widths (the last one stretched beyond its own) against the room the table has.
bool SweepTable::columnsWiderThanView() const
{
    const int last = columnCount() - 1;
    int width = 0;
    for (int c = 0; c < last; ++c)
        width += horizontalHeader()->sectionSize(c);
    if (last >= 0)
        width += std::max(sizeHintForColumn(last), horizontalHeader()->sectionSizeHint(last));
    return width > viewport()->width();
}

// Narrower or wider, a sideways scroll bar comes or goes, and the height with it.
void SweepTable::resizeEvent(QResizeEvent* event)
{
    QTableWidget::resizeEvent(event);
    fitHeightToRows();
}

QString SweepTable::howText(std::int64_t evalEvery)
{
    return tr("Held-out loss and accuracy: after the last step, over the task's held-out sequences (the same for "
              "every seed and num_heads), eval mode, mean ± sample std over the finished seeds. Steps to 90%: the "
              "first held-out measurement (one every %1 steps) reaching 90% of the run's best. ms per step: forward, "
              "backward and AdamW on one engine thread, measured by the trainer.")
        .arg(evalEvery);
}

} // namespace attnlab::ui
