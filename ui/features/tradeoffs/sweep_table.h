#pragma once
// A sweep's table: per num_heads and num_kv_groups, the KV cache a token adds, the final held-out accuracy and
// loss (mean ± std over the finished seeds), steps to 90% of the best accuracy and ms per step, each column's
// header saying how it was obtained; howText() is the same, as the line under the table.
#include "features/tradeoffs/sweep_results.h"

#include <QTableWidget>

namespace attnlab::ui {

class SweepTable : public QTableWidget {
    Q_OBJECT
public:
    explicit SweepTable(QWidget* parent = nullptr);
    void setRows(const std::vector<SweepRow>& rows);
    static QString howText(std::int64_t evalEvery);
    static QString meanStd(const train::Spread& spread, int seeds);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitHeightToRows();
    bool columnsWiderThanView() const;
};

} // namespace attnlab::ui
