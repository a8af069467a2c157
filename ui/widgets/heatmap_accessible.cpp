#include "widgets/heatmap_accessible.h"

#include "widgets/heatmap_widget.h"

#include <QAccessibleWidget>
#include <QHash>
#include <QPointer>

#include <cmath>

namespace attnlab::ui {

namespace {

class HeatmapTable;

// A cell (row, col >= 0), a query's row header (col == -1) or a key's column header (row == -1).
// Holds indices only: the text is read from the widget each time, so a new trace is never stale.
class HeatmapCell : public QAccessibleInterface, public QAccessibleTableCellInterface {
public:
    HeatmapCell(HeatmapWidget* map, int row, int col) : map_(map), row_(row), col_(col) {}

    bool isHeader() const { return row_ < 0 || col_ < 0; }
    bool isValid() const override
    {
        if (!map_)
            return false;
        const HeatmapSlice& s = map_->heatmap().slice();
        return s.valid() && row_ < s.rows && col_ < s.cols;
    }
    QObject* object() const override { return nullptr; }
    QWindow* window() const override { return map_ ? map_->window()->windowHandle() : nullptr; }
    QAccessibleInterface* focusChild() const override { return nullptr; }
    QAccessibleInterface* childAt(int, int) const override { return nullptr; }
    QAccessibleInterface* parent() const override { return QAccessible::queryAccessibleInterface(map_.data()); }
    QAccessibleInterface* child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface*) const override { return -1; }
    QAccessible::Role role() const override
    {
        return row_ < 0 ? QAccessible::ColumnHeader : col_ < 0 ? QAccessible::RowHeader : QAccessible::Cell;
    }
    QAccessible::State state() const override
    {
        QAccessible::State st;
        if (!isValid() || isHeader())
            return st;
        st.selectable = st.focusable = true;
        st.selected = isSelected();
        st.focused = st.selected && map_->hasFocus();
        return st;
    }
    QString text(QAccessible::Text t) const override
    {
        if (!isValid())
            return {};
        if (isHeader()) {
            const int index = row_ < 0 ? col_ : row_;
            if (t == QAccessible::Name || t == QAccessible::Value)
                return map_->tokenLabel(index);
            return t == QAccessible::Description
                       ? QStringLiteral("%1 token %2").arg(row_ < 0 ? "key" : "query").arg(index)
                       : QString();
        }
        const auto cell = map_->cellAt(row_, col_);
        if (t == QAccessible::Name || t == QAccessible::Value)
            return heatmapCellText(*cell);
        if (t == QAccessible::Description)
            return map_->describe(*cell);
        return {};
    }
    void setText(QAccessible::Text, const QString&) override {}
    QRect rect() const override
    {
        if (!isValid())
            return {};
        const QRect r = map_->cellRect(std::max(row_, 0), std::max(col_, 0));
        return QRect(map_->mapToGlobal(r.topLeft()), r.size());
    }
    void* interface_cast(QAccessible::InterfaceType type) override
    {
        return type == QAccessible::TableCellInterface && !isHeader()
                   ? static_cast<QAccessibleTableCellInterface*>(this)
                   : nullptr;
    }

    bool isSelected() const override { return map_ && map_->currentRow() == row_ && map_->currentColumn() == col_; }
    QList<QAccessibleInterface*> columnHeaderCells() const override;
    QList<QAccessibleInterface*> rowHeaderCells() const override;
    int columnIndex() const override { return col_; }
    int rowIndex() const override { return row_; }
    int columnExtent() const override { return 1; }
    int rowExtent() const override { return 1; }
    QAccessibleInterface* table() const override { return parent(); }

private:
    QPointer<HeatmapWidget> map_;
    int row_;
    int col_;
};

class HeatmapTable : public QAccessibleWidget, public QAccessibleTableInterface {
public:
    explicit HeatmapTable(HeatmapWidget* map) : QAccessibleWidget(map, QAccessible::Table) {}
    ~HeatmapTable() override { forgetCells(); }

    HeatmapWidget* map() const { return static_cast<HeatmapWidget*>(widget()); }
    const HeatmapSlice& slice() const { return map()->heatmap().slice(); }
    int built() const { return static_cast<int>(cells_.size()); }

    // Made on first request and kept (the accessibility cache owns them) until the matrix changes size.
    QAccessibleInterface* cell(int row, int col) const
    {
        const HeatmapSlice& s = slice();
        if (!s.valid() || row < -1 || col < -1 || row >= s.rows || col >= s.cols || (row < 0 && col < 0))
            return nullptr;
        if (s.rows != rows_ || s.cols != cols_) {
            forgetCells();
            rows_ = s.rows;
            cols_ = s.cols;
        }
        const quint64 key = (static_cast<quint64>(row + 1) << 32) | static_cast<quint32>(col + 1);
        if (const auto it = cells_.constFind(key); it != cells_.constEnd())
            return QAccessible::accessibleInterface(*it);
        auto* c = new HeatmapCell(map(), row, col);
        cells_.insert(key, QAccessible::registerAccessibleInterface(c));
        return c;
    }

    void* interface_cast(QAccessible::InterfaceType type) override
    {
        return type == QAccessible::TableInterface ? static_cast<QAccessibleTableInterface*>(this)
                                                   : QAccessibleWidget::interface_cast(type);
    }
    int childCount() const override { return slice().valid() ? slice().rows * slice().cols : 0; }
    QAccessibleInterface* child(int index) const override
    {
        const int cols = slice().valid() ? slice().cols : 1;
        return index < 0 || index >= childCount() ? nullptr : cell(index / cols, index % cols);
    }
    int indexOfChild(const QAccessibleInterface* child) const override
    {
        if (!child || child->role() != QAccessible::Cell)
            return -1;
        auto* c = static_cast<const HeatmapCell*>(child);
        return c->rowIndex() * slice().cols + c->columnIndex();
    }
    QAccessibleInterface* focusChild() const override
    {
        return map()->hasFocus() ? cell(map()->currentRow(), map()->currentColumn()) : nullptr;
    }
    QAccessibleInterface* childAt(int x, int y) const override
    {
        const QPoint local = map()->mapFromGlobal(QPoint(x, y));
        const auto hit = map()->cellUnder(local);
        return hit ? cell(hit->query, hit->key) : nullptr;
    }

    QAccessibleInterface* caption() const override { return nullptr; }
    QAccessibleInterface* summary() const override { return nullptr; }
    QAccessibleInterface* cellAt(int row, int column) const override
    {
        return row < 0 || column < 0 ? nullptr : cell(row, column);
    }
    int selectedCellCount() const override { return slice().valid() ? 1 : 0; }
    QList<QAccessibleInterface*> selectedCells() const override
    {
        if (auto* c = cellAt(map()->currentRow(), map()->currentColumn()))
            return {c};
        return {};
    }
    QString columnDescription(int column) const override { return map()->tokenLabel(column); }
    QString rowDescription(int row) const override { return map()->tokenLabel(row); }
    int selectedColumnCount() const override { return 0; }
    int selectedRowCount() const override { return 0; }
    int columnCount() const override { return slice().valid() ? slice().cols : 0; }
    int rowCount() const override { return slice().valid() ? slice().rows : 0; }
    QList<int> selectedColumns() const override { return {}; }
    QList<int> selectedRows() const override { return {}; }
    bool isColumnSelected(int) const override { return false; }
    bool isRowSelected(int) const override { return false; }
    bool selectRow(int) override { return false; }
    bool selectColumn(int) override { return false; }
    bool unselectRow(int) override { return false; }
    bool unselectColumn(int) override { return false; }
    void modelChange(QAccessibleTableModelChangeEvent*) override { forgetCells(); }

private:
    void forgetCells() const
    {
        for (QAccessible::Id id : std::as_const(cells_))
            QAccessible::deleteAccessibleInterface(id);
        cells_.clear();
    }

    mutable QHash<quint64, QAccessible::Id> cells_;
    mutable int rows_ = 0;
    mutable int cols_ = 0;
};

HeatmapTable* tableOf(const HeatmapWidget* map)
{
    return map ? dynamic_cast<HeatmapTable*>(QAccessible::queryAccessibleInterface(const_cast<HeatmapWidget*>(map)))
               : nullptr;
}

QList<QAccessibleInterface*> HeatmapCell::columnHeaderCells() const
{
    if (auto* t = tableOf(map_.data()))
        if (auto* h = t->cell(-1, col_))
            return {h};
    return {};
}

QList<QAccessibleInterface*> HeatmapCell::rowHeaderCells() const
{
    if (auto* t = tableOf(map_.data()))
        if (auto* h = t->cell(row_, -1))
            return {h};
    return {};
}

QAccessibleInterface* heatmapFactory(const QString& className, QObject* object)
{
    if (className == QLatin1String(HeatmapWidget::staticMetaObject.className()) && object && object->isWidgetType())
        return new HeatmapTable(static_cast<HeatmapWidget*>(object));
    return nullptr;
}

} // namespace

void installHeatmapAccessibility()
{
    static const bool installed = [] {
        QAccessible::installFactory(heatmapFactory);
        return true;
    }();
    (void)installed;
}

void notifyHeatmapCellFocus(HeatmapWidget* map)
{
    if (!QAccessible::isActive() || !map->hasFocus())
        return; // no reader listening: make no cell
    if (HeatmapTable* t = tableOf(map))
        if (QAccessibleInterface* c = t->cell(map->currentRow(), map->currentColumn())) {
            QAccessibleEvent event(c, QAccessible::Focus);
            QAccessible::updateAccessibility(&event);
        }
}

QString heatmapCellText(const HeatmapHit& cell)
{
    const float v = cell.value;
    if (!cell.masked)
        return formatExact(v);
    return std::isinf(v) ? QStringLiteral("masked (−∞)") : QStringLiteral("masked, %1").arg(formatExact(v));
}

int heatmapCellsBuilt(QAccessibleInterface* table)
{
    auto* t = dynamic_cast<HeatmapTable*>(table);
    return t ? t->built() : -1;
}

} // namespace attnlab::ui
