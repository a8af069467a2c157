#include "features/stepper/tensor_grid.h"
#include "widgets/lesson_target.h"

#include "render/colormap.h"

#include "render/heatmap_painter.h"
#include "widgets/code_font.h"
#include "widgets/flow_layout.h"
#include "widgets/themed.h"
#include "widgets/refresh_when_shown.h"
#include "features/stepper/stepper_state.h"
#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <cmath>
#include <limits>

namespace attnlab::ui {

namespace {

constexpr int kMaskedRole = Qt::UserRole + 1; // a −∞ cell, which keeps its grey

// The values pane's content is as tall as its selectors and summary need at a width plus a few table
// rows, not plus the table's whole size hint: the scroll bar comes only when those do not fit.
class ValuesContent : public QWidget {
public:
    explicit ValuesContent(QTableWidget* table) : table_(table) {}
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override
    {
        const int rows = table_->horizontalHeader()->sizeHint().height() +
                         3 * table_->verticalHeader()->defaultSectionSize() + 2 * table_->frameWidth();
        return QWidget::heightForWidth(width) - table_->sizeHint().height() + rows;
    }

private:
    QTableWidget* table_;
};

} // namespace

QString valuesGridText(float value)
{
    if (!std::isfinite(value))
        return formatValue(value);
    return QString::number(value, 'f', std::abs(value) >= 1000 ? 1 : 4);
}

TensorGrid::TensorGrid(StepperState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    batch_ = new QSpinBox;
    head_ = new QSpinBox;
    nameTarget(batch_, QStringLiteral("grid-batch"));
    nameTarget(head_, QStringLiteral("grid-head"));
    batch_->setToolTip(tr("Which sequence of the batch the table shows."));
    head_->setToolTip(tr("Which head the table shows (the stages that have heads)."));
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    table_ = new QTableWidget;
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setTabKeyNavigation(false); // Tab leaves the table; the arrows move inside it
    table_->setAccessibleName(tr("Values of the current stage"));
    table_->setAccessibleDescription(tr("The numbers of the selected sequence and head at this stage, with the "
                                        "tokens and axes as headers."));
    table_->setFocusPolicy(Qt::TabFocus); // Tab reaches it; a click leaves the stage keys where they were
    table_->horizontalHeader()->setDefaultSectionSize(76);
    table_->verticalHeader()->setDefaultSectionSize(26);
    useCodeFont(table_, 0.9);

    // Each label stays with its box, and the pairs wrap under the title when the pane is narrow
    // (presentation type on a 1280-pixel projector, where the splitter keeps the pane's width).
    auto pair = [](QLabel* label, QWidget* box) {
        auto* both = new QWidget;
        auto* row = new QHBoxLayout(both);
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(label);
        row->addWidget(box);
        label->setBuddy(box);
        return both;
    };
    batch_->setAccessibleName(tr("Sequence (b)"));
    auto* selectors = new FlowLayout;
    selectors->addWidget(pair(new QLabel(tr("<b>Values</b>   sequence (b):")), batch_));
    selectors->addWidget(pair(new QLabel(tr("head:")), head_));

    // In a short pane the wrapped selectors and summary scroll with the table rather than pushing the
    // shape diagram above into a sliver (or being drawn over each other).
    auto* content = new ValuesContent(table_);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(selectors);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    auto* scroll = new QScrollArea;
    nameTarget(scroll, QStringLiteral("values-scroll"));
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setFocusPolicy(Qt::NoFocus);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    // A number clicked (or reached with the arrow keys) is the one followed through the other stages.
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row, int column) {
        if (filling_ || row < 0 || column < 0 || !state_->view()->stage())
            return;
        const std::vector<std::int64_t> index = indexOfCell(row, column);
        state_->document()->setSelectedElement(
            {QString::fromStdString(state_->view()->stage()->name), QList<qint64>(index.begin(), index.end())});
    });
    connect(batch_, &QSpinBox::valueChanged, state_->view(), &ViewModel::setBatchIndex);
    connect(head_, &QSpinBox::valueChanged, state_->view(), &ViewModel::setHead);
    auto* whenShown = new RefreshWhenShown(this, [this] { refresh(); }); // a table nobody sees waits
    connect(state_, &StepperState::changed, this, [this, whenShown](ChangeFlags flags) {
        if (flags & (ChangeFlag::Trace | ChangeFlag::Stage | ChangeFlag::Head))
            whenShown->request();
        else if (flags & ChangeFlag::Selection) // the same cells, marked anew: the keyboard's place stays
            showFollowed();
    });
    refresh();
}

void TensorGrid::refresh()
{
    const Stage* stage = state_->view()->stage();
    if (!stage)
        return;
    const Tensor& t = stage->tensor;
    const QStringList tokens = state_->trace()->tokenLabels();
    // Fix the batch and head axes at the selection; show the last two remaining axes.
    std::int64_t base = 0;
    std::vector<std::size_t> free;
    bool hasBatch = false, hasHead = false;
    for (std::size_t a = 0; a < stage->axes.size(); ++a) {
        if (stage->axes[a] == Axis::b) {
            hasBatch = true;
            base += state_->view()->batchIndex() * t.strides()[a];
        } else if (stage->axes[a] == Axis::num_heads) {
            hasHead = true;
            base += state_->view()->head() * t.strides()[a];
        } else {
            free.push_back(a);
        }
    }
    while (free.size() > 2)
        free.erase(free.begin()); // leading extra axes stay at index 0
    fixed_.assign(stage->axes.size(), 0);
    for (std::size_t a = 0; a < stage->axes.size(); ++a)
        fixed_[a] = stage->axes[a] == Axis::b           ? state_->view()->batchIndex()
                    : stage->axes[a] == Axis::num_heads ? state_->view()->head()
                                                        : 0;
    free_ = free;
    {
        const QSignalBlocker b1(batch_), b2(head_);
        batch_->setEnabled(hasBatch);
        batch_->setRange(0, hasBatch ? static_cast<int>(t.size(0)) - 1 : 0);
        batch_->setValue(state_->view()->batchIndex());
        head_->setEnabled(hasHead);
        head_->setRange(0, state_->view()->headCount() - 1);
        head_->setValue(state_->view()->head());
    }
    const std::int64_t rows = free.size() == 2 ? t.size(static_cast<std::int64_t>(free[0])) : 1;
    const std::int64_t cols = free.empty() ? 1 : t.size(static_cast<std::int64_t>(free.back()));
    const std::int64_t rs = free.size() == 2 ? t.strides()[free[0]] : 0,
                       cs = free.empty() ? 0 : t.strides()[free.back()];
    const float* data = t.data() + base; // strided access works for views too
    auto at = [&](std::int64_t r, std::int64_t c) { return data[r * rs + c * cs]; };

    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
    std::int64_t finite = 0, masked = 0;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c) {
            const float v = at(r, c);
            if (!std::isfinite(v)) {
                ++masked;
                continue;
            }
            lo = std::min(lo, double(v));
            hi = std::max(hi, double(v));
            sum += v;
            ++finite;
        }
    const bool full = rows <= kFullLimit && cols <= kFullLimit;
    const int shownRows = static_cast<int>(full ? rows : std::min<std::int64_t>(rows, kCorner));
    const int shownCols = static_cast<int>(full ? cols : std::min<std::int64_t>(cols, kCorner));
    // A followed number beyond the corner brings the window to it (centred where the slice allows).
    rows_ = rows;
    cols_ = cols;
    rowStart_ = colStart_ = 0;
    if (!full)
        if (const auto cell = followedCell()) {
            rowStart_ = std::clamp<std::int64_t>(cell->first - shownRows / 2, 0, rows - shownRows);
            colStart_ = std::clamp<std::int64_t>(cell->second - shownCols / 2, 0, cols - shownCols);
        }
    const QString axisR =
        free.size() == 2 ? QString::fromStdString(std::string(axis_name(stage->axes[free[0]]))) : QString();
    const QString axisC =
        free.empty() ? QString() : QString::fromStdString(std::string(axis_name(stage->axes[free.back()])));
    // A causal module's weights (after the softmax, and after dropout) are exactly 0 above the diagonal because the
    // mask put -inf there, not because the query found the key unrelated: those cells say so, in the masked grey.
    const auto trace = state_->trace()->trace();
    const std::size_t ndim = stage->axes.size();
    const bool maskedZeros =
        trace && trace->config.is_causal() && stage->matrix &&
        (*stage->matrix == AttentionMatrix::Weights || *stage->matrix == AttentionMatrix::Dropout) &&
        free.size() == 2 && free[0] == ndim - 2 && free[1] == ndim - 1;
    QString text =
        tr("%1 × %2 slice (rows: %3, columns: %4): min %5, max %6, mean %7")
            .arg(rows)
            .arg(cols)
            .arg(axisR.isEmpty() ? "-" : axisR, axisC)
            .arg(formatValue(float(lo)), formatValue(float(hi)), formatValue(finite ? float(sum / finite) : 0.f));
    if (masked)
        text += tr(", %1 masked (−∞)").arg(masked);
    if (maskedZeros)
        text += tr(", %1 masked (0: the causal mask's −∞ after the softmax)").arg(rows * (rows - 1) / 2);
    if (!full && rowStart_ == 0 && colStart_ == 0)
        text += tr(". Too many to list; showing the top-left %1 × %2.").arg(shownRows).arg(shownCols);
    else if (!full)
        text += tr(". Too many to list; showing rows %1–%2 and columns %3–%4, around the followed number.")
                    .arg(rowStart_)
                    .arg(rowStart_ + shownRows - 1)
                    .arg(colStart_)
                    .arg(colStart_ + shownCols - 1);
    summary_->setText(text);

    const QSignalBlocker quiet(table_); // filling it is not the student choosing a cell
    filling_ = true;
    table_->clear();
    table_->setRowCount(shownRows);
    table_->setColumnCount(shownCols);
    auto header = [&](const QString& axis, int i) {
        return axis == QLatin1String("num_tokens") && i < tokens.size() && tokens[i] != QString::number(i)
                   ? QStringLiteral("%1 %2").arg(i).arg(tokens[i])
                   : QString::number(i);
    };
    const int r0 = static_cast<int>(rowStart_), c0 = static_cast<int>(colStart_);
    for (int r = 0; r < shownRows; ++r)
        table_->setVerticalHeaderItem(r, new QTableWidgetItem(header(axisR, r0 + r)));
    for (int c = 0; c < shownCols; ++c)
        table_->setHorizontalHeaderItem(c, new QTableWidgetItem(header(axisC, c0 + c)));
    for (int r = 0; r < shownRows; ++r)
        for (int c = 0; c < shownCols; ++c) {
            const float v = at(r0 + r, c0 + c);
            const bool maskedZero = maskedZeros && c0 + c > r0 + r;
            auto* item = new QTableWidgetItem(maskedZero ? tr("masked") : valuesGridText(v));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (std::isinf(v) ||
                maskedZero) { // −∞, or the 0 it became: the heatmaps' masked grey, ink that reads on it
                item->setBackground(QColor(kMaskedLight));
                item->setForeground(QColor(Qt::black));
                item->setData(kMaskedRole, true);
                if (maskedZero)
                    item->setToolTip(
                        tr("Exactly 0: the causal mask hid this key (after the query) before the softmax."));
            }
            table_->setItem(r, c, item);
        }
    filling_ = false;
    showFollowed();
}

std::vector<std::int64_t> TensorGrid::indexOfCell(int row, int column) const
{
    std::vector<std::int64_t> index = fixed_;
    if (free_.size() == 2) {
        index[free_[0]] = rowStart_ + row;
        index[free_[1]] = colStart_ + column;
    } else if (free_.size() == 1) {
        index[free_[0]] = colStart_ + column;
    }
    return index;
}

std::optional<std::pair<std::int64_t, std::int64_t>> TensorGrid::followedCell() const
{
    const ElementFollow* f = state_->study()->followedElement();
    const Stage* stage = state_->view()->stage();
    if (!f || !stage || fixed_.size() != stage->axes.size())
        return std::nullopt;
    const auto inSlice = [&](const Index& index) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
        if (index.size() != fixed_.size())
            return std::nullopt;
        for (std::size_t a = 0; a < index.size(); ++a)
            if (std::find(free_.begin(), free_.end(), a) == free_.end() && index[a] != fixed_[a])
                return std::nullopt; // another sequence, head or leading slice
        return std::pair{free_.size() == 2 ? index[free_[0]] : std::int64_t{0},
                         free_.empty() ? std::int64_t{0} : index[free_.back()]};
    };
    for (const ElementPlace& p : f->places)
        if (p.stage == stage->name)
            if (auto cell = inSlice(p.index))
                return cell;
    for (const Operand& op : followed_operands(*f))
        if (op.tensor == stage->name && !op.indices.empty())
            if (auto cell = inSlice(op.indices.front()))
                return cell;
    return std::nullopt;
}

void TensorGrid::showFollowed()
{
    for (int r = 0; r < table_->rowCount(); ++r) // last selection's marks off
        for (int c = 0; c < table_->columnCount(); ++c)
            if (QTableWidgetItem* item = table_->item(r, c); item && item->data(Qt::UserRole).isValid()) {
                const bool masked = item->data(kMaskedRole).toBool();
                item->setBackground(masked ? QBrush(QColor(kMaskedLight)) : QBrush());
                item->setForeground(masked ? QBrush(QColor(Qt::black)) : QBrush());
                item->setToolTip({});
                item->setData(Qt::UserRole, {});
            }
    const ElementFollow* f = state_->study()->followedElement();
    const Stage* stage = state_->view()->stage();
    if (!f || !stage || fixed_.size() != stage->axes.size())
        return;
    // A number followed from elsewhere (another stage, a lesson) may lie outside the shown window: move it.
    if (const auto cell = followedCell(); cell && !filling_) {
        const bool shown = cell->first >= rowStart_ && cell->first < rowStart_ + table_->rowCount() &&
                           cell->second >= colStart_ && cell->second < colStart_ + table_->columnCount();
        if (!shown) {
            refresh(); // centres the window on it, then marks
            return;
        }
    }
    const RenderStyle style = styleFor(this);
    const auto cellOf = [&](const Index& index) -> std::optional<std::pair<int, int>> {
        if (index.size() != fixed_.size())
            return std::nullopt;
        for (std::size_t a = 0; a < index.size(); ++a)
            if (std::find(free_.begin(), free_.end(), a) == free_.end() && index[a] != fixed_[a])
                return std::nullopt; // another sequence, head or leading slice
        const std::int64_t row = (free_.size() == 2 ? index[free_[0]] : 0) - rowStart_;
        const std::int64_t column = (free_.empty() ? 0 : index[free_.back()]) - colStart_;
        if (row < 0 || column < 0 || row >= table_->rowCount() || column >= table_->columnCount())
            return std::nullopt;
        return std::pair{static_cast<int>(row), static_cast<int>(column)};
    };
    const auto mark = [&](const Index& index, const QColor& fill, const QString& why) {
        if (const auto cell = cellOf(index))
            if (QTableWidgetItem* item = table_->item(cell->first, cell->second)) {
                item->setBackground(fill);
                item->setForeground(style.inkOn(fill));
                item->setToolTip(why);
                item->setData(Qt::UserRole, why); // what the test and an accessibility tool read
            }
    };
    for (const Operand& op : followed_operands(*f))
        if (op.tensor == stage->name)
            for (const Index& i : op.indices)
                mark(i, style.tint(style.info, 0.35), tr("a source of the followed number"));
    for (const ElementPlace& p : f->places)
        if (p.stage == stage->name)
            mark(p.index, style.tint(style.moved, 0.55),
                 p.placement == Placement::Copy ? tr("a copy of the followed number") : tr("the followed number"));
}

} // namespace attnlab::ui
