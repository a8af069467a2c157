#pragma once
// The trade-off rows as a table (one per valid num_heads, the numbers the chart draws); the current
// num_heads is the selected row, and clicking a row asks for that num_heads.
#include "designs/tradeoffs.h"

#include <QTableWidget>

namespace attnlab::ui {

class TradeoffTable : public QTableWidget {
    Q_OBJECT
public:
    explicit TradeoffTable(QWidget* parent = nullptr);
    void setTradeoffs(const HeadTradeoffs& tradeoffs, std::int64_t selectedHeads);
    int rowOfHeads(std::int64_t numHeads) const; // -1 when not a row

Q_SIGNALS:
    void headsClicked(std::int64_t numHeads);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void fitColumns();
};

} // namespace attnlab::ui
