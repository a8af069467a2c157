#include "features/tradeoffs/tradeoff_table.h"

#include "render/number_format.h"

#include <QEvent>
#include <QHeaderView>

#include <algorithm>
#include <vector>

namespace attnlab::ui {

TradeoffTable::TradeoffTable(QWidget* parent) : QTableWidget(parent)
{
    setColumnCount(9);
    setHorizontalHeaderLabels({QStringLiteral("num_heads"), QStringLiteral("head_dim"), QStringLiteral("parameters"),
                               QStringLiteral("projections"), QStringLiteral("scores"), QStringLiteral("context"),
                               QStringLiteral("out_proj"), QStringLiteral("multiply-\nadds"),
                               QStringLiteral("score\nmemory")});
    horizontalHeaderItem(3)->setToolTip(QStringLiteral("multiply-adds of the Q, K and V projections"));
    horizontalHeaderItem(8)->setToolTip(QStringLiteral("one attention-score tensor: 4·b·H·T·T bytes"));
    verticalHeader()->setVisible(false);
    fitColumns();
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setCursor(Qt::PointingHandCursor);
    setTabKeyNavigation(false); // Tab leaves the table; the arrows move inside it
    setAccessibleName(tr("Head counts and their costs"));
    setAccessibleDescription(
        tr("One row per num_heads that divides d_out; click a row, or press Enter on it, to use it."));
    auto use = [this](int row, int) {
        if (auto* it = item(row, 0))
            Q_EMIT headsClicked(it->data(Qt::UserRole).toLongLong());
    };
    connect(this, &QTableWidget::cellClicked, this, use);
    connect(this, &QTableWidget::cellActivated, this, use); // Enter from the keyboard
}

int TradeoffTable::rowOfHeads(std::int64_t numHeads) const
{
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, 0)->data(Qt::UserRole).toLongLong() == numHeads)
            return r;
    return -1;
}

void TradeoffTable::setTradeoffs(const HeadTradeoffs& t, std::int64_t selectedHeads)
{
    const QSignalBlocker block(this);
    setRowCount(static_cast<int>(t.rows.size()));
    for (int r = 0; r < rowCount(); ++r) {
        const HeadOption& o = t.rows[static_cast<std::size_t>(r)];
        const QStringList cells = {
            QString::number(o.num_heads),   QString::number(o.head_dim), groupedCount(o.parameters),
            shortCount(o.cost.projections), shortCount(o.cost.scores),   shortCount(o.cost.context),
            shortCount(o.cost.out_proj),    shortCount(o.cost.total()),  shortBytes(o.score_bytes)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* it = new QTableWidgetItem(cells[c]);
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 0)
                it->setData(Qt::UserRole, static_cast<qlonglong>(o.num_heads));
            setItem(r, c, it);
        }
    }
    clearSelection();
    if (const int r = rowOfHeads(selectedHeads); r >= 0) {
        selectRow(r);
        scrollToItem(item(r, 0));
    }
    fitColumns();
}

void TradeoffTable::fitColumns()
{
    // Each column gets what its header and cells need, and the room left is shared out evenly; Stretch
    // would make them all equal and cut the longest headers in projector type ("arameters"). When they
    // need more than the width, the table scrolls sideways.
    QHeaderView* header = horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Fixed);
    std::vector<int> need(static_cast<std::size_t>(columnCount()));
    int sum = 0;
    for (int c = 0; c < columnCount(); ++c)
        sum += need[static_cast<std::size_t>(c)] = std::max(header->sectionSizeHint(c), sizeHintForColumn(c));
    const int extra = columnCount() > 0 ? std::max(0, viewport()->width() - sum) / columnCount() : 0;
    for (int c = 0; c < columnCount(); ++c)
        header->resizeSection(c, need[static_cast<std::size_t>(c)] + extra);
}

void TradeoffTable::resizeEvent(QResizeEvent* event)
{
    QTableWidget::resizeEvent(event);
    fitColumns();
}

void TradeoffTable::changeEvent(QEvent* event)
{
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitColumns();
}

} // namespace attnlab::ui
