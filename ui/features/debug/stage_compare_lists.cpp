#include "features/debug/stage_compare_lists.h"
#include "widgets/lesson_target.h"

#include "features/debug/bug_lesson.h"
#include "render/divergence_painter.h"
#include "widgets/code_font.h"
#include "widgets/themed.h"

#include <QEvent>
#include <QFontInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QScrollBar>
#include <QStyledItemDelegate>

namespace attnlab::ui {

namespace {

// The book's rows name the stage; the buggy rows beside them, aligned and scrolled together, do not repeat it.
constexpr int kBookRowChars = 37;  // marker 2 + stage 19 + shape 16
constexpr int kBuggyRowChars = 19; // marker 2 + shape 16 + verdict 1

// Rows keep their own colours when selected (the first divergence stays red); the selection is a frame.
class FramedSelection : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem o(option);
        const bool selected = o.state & QStyle::State_Selected;
        o.state &= ~(QStyle::State_Selected | QStyle::State_HasFocus);
        QStyledItemDelegate::paint(p, o, index);
        if (selected) {
            p->save();
            p->setPen(QPen(RenderStyle::fromPalette(option.palette, QPalette::Base).info, 3));
            p->drawRect(QRectF(o.rect).adjusted(1.5, 1.5, -1.5, -1.5));
            p->restore();
        }
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        return QStyledItemDelegate::sizeHint(option, index) + QSize(0, 6);
    }
};

QString marker(bool first)
{
    return first ? QStringLiteral("▶ ") : QStringLiteral("  ");
}

QString rowText(bool first, const std::string& stage, const QString& shape)
{
    return marker(first) + QString::fromStdString(stage).leftJustified(19) + shape;
}

QString shapeText(const Shape& shape)
{
    return shape.empty() ? QStringLiteral("—") : QString::fromStdString(shape_to_string(shape));
}

// Every tinted row gets its ink with it: a fill without a foreground reads dark on dark in a dark theme.
void mark(QListWidgetItem* item, bool first, const QColor& tint, const QColor& ink, const RenderStyle& style)
{
    item->setData(StageCompareLists::kFirstDivergenceRole, first);
    QColor fill = tint;
    if (first) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
        fill = style.tint(style.differs, style.dark ? 0.4 : 0.3);
    }
    if (fill.isValid()) {
        item->setBackground(fill);
        item->setForeground(style.readable(ink.isValid() ? ink : style.text, fill));
    } else if (ink.isValid()) {
        item->setForeground(style.readable(ink, style.background));
    }
}

} // namespace

StageCompareLists::StageCompareLists(BugLesson* lesson, QWidget* parent) : QWidget(parent), lesson_(lesson)
{
    auto makeList = [&](const QString& name) {
        auto* list = new QListWidget;
        nameTarget(list, name);
        // In the window's type: a projector's page beside the lessons dock holds the two lists side by
        // side because the stage is named once, in the book's rows.
        useCodeFont(list);
        list->installEventFilter(this);     // its size follows its type
        list->setFocusPolicy(Qt::TabFocus); // reached by Tab (keyboard users), not taken by a click
        list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        list->setItemDelegate(new FramedSelection(list));
        fitToType(list, name == QLatin1String("book-stages") ? kBookRowChars : kBuggyRowChars);
        connect(list, &QListWidget::currentRowChanged, lesson_, [this](int row) { lesson_->setSelectedRow(row); });
        return list;
    };
    book_ = makeList(QStringLiteral("book-stages"));
    buggy_ = makeList(QStringLiteral("buggy-stages"));
    book_->setAccessibleName(tr("The book's stages"));
    book_->setAccessibleDescription(tr("Each stage of the book's module with its shape; choose one to compare it."));
    buggy_->setAccessibleName(tr("The buggy module's stages"));
    buggy_->setAccessibleDescription(tr("The same stages with the bug injected; the first that differs is marked."));
    // Scrolling one list scrolls the other, so rows stay side by side.
    connect(book_->verticalScrollBar(), &QScrollBar::valueChanged, buggy_->verticalScrollBar(), &QScrollBar::setValue);
    connect(buggy_->verticalScrollBar(), &QScrollBar::valueChanged, book_->verticalScrollBar(), &QScrollBar::setValue);
    buggyTitle_ = new QLabel;
    buggyTitle_->setWordWrap(true); // a long bug name in projector type would widen the page past the window
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("<b>The book's forward</b>")), 0, 0);
    layout->addWidget(buggyTitle_, 0, 1);
    layout->addWidget(book_, 1, 0);
    layout->addWidget(buggy_, 1, 1);
    // What the marks of the buggy rows mean, in the painter's own words for each status.
    QStringList marks;
    for (DivergenceStatus status : {DivergenceStatus::Same, DivergenceStatus::Values, DivergenceStatus::Shape,
                                    DivergenceStatus::Error, DivergenceStatus::NotReached})
        marks << DivergencePainter::statusText(status);
    auto* legend = new QLabel(marks.join(QStringLiteral("   ")));
    nameTarget(legend, QStringLiteral("stage-marks-legend"));
    legend->setWordWrap(true);
    layout->addWidget(legend, 2, 0, 1, 2);
    connect(lesson_, &BugLesson::changed, this, &StageCompareLists::rebuild);
    followPalette(this, [this] { rebuild(); });
    connect(lesson_, &BugLesson::rowSelected, this, &StageCompareLists::select);
    rebuild();
}

void StageCompareLists::fitToType(QListWidget* list, int chars)
{
    list->setMinimumWidth(list->fontMetrics().horizontalAdvance(QString(chars, QLatin1Char('x'))) + 40);
    // Six rows around the selected one at the desk; in projector type four, so that on a 1280x720 screen
    // the verdict, both lists and the detail card under them are in view together (they scroll to the row).
    const int rows = QFontInfo(list->font()).pixelSize() >= 20 ? 4 : 6;
    const int row = list->fontMetrics().height() + 6 + 2 * list->spacing(); // FramedSelection's row
    list->setMaximumHeight(rows * row + 2 * list->frameWidth() + 2);
}

bool StageCompareLists::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::FontChange && (watched == book_ || watched == buggy_))
        fitToType(static_cast<QListWidget*>(watched), watched == book_ ? kBookRowChars : kBuggyRowChars);
    return QWidget::eventFilter(watched, event);
}

int StageCompareLists::highlightedRow() const
{
    for (int i = 0; i < book_->count(); ++i)
        if (book_->item(i)->data(kFirstDivergenceRole).toBool() && buggy_->item(i)->data(kFirstDivergenceRole).toBool())
            return i;
    return -1;
}

void StageCompareLists::rebuild()
{
    const QSignalBlocker b1(book_), b2(buggy_);
    book_->clear();
    buggy_->clear();
    const RenderStyle style = RenderStyle::fromPalette(book_->palette(), QPalette::Base);
    buggyTitle_->setText(
        tr("<b style='color:%2'>With the bug: %1</b>")
            .arg(QString::fromStdString(bug_info(lesson_->bug()).name), cssColor(styleFor(buggyTitle_).differs)));
    const auto& d = lesson_->diagnosis();
    if (!d)
        return;
    // Held back (a lesson asks the room first): the shapes side by side, no row marked or tinted by its verdict.
    const bool held = lesson_->answerHeld();
    const int first = held ? -1 : lesson_->firstDivergenceRow();
    for (int i = 0; i < static_cast<int>(d->stages.size()); ++i) {
        const StageComparison& row = d->stages[static_cast<std::size_t>(i)];
        const bool isFirst = i == first;
        const bool config = row.stage == "config";
        auto* left =
            new QListWidgetItem(rowText(isFirst, row.stage, config ? tr("ok") : shapeText(row.expected_shape)));
        mark(left, isFirst, QColor(), QColor(), style);
        book_->addItem(left);
        const QString verdict = held ? QString() : DivergencePainter::statusText(row.status).left(1);
        auto* right = new QListWidgetItem(marker(isFirst) + shapeText(row.observed_shape).leftJustified(16) + verdict);
        const QString said = held ? tr("%1: %2").arg(QString::fromStdString(row.stage), shapeText(row.observed_shape))
                                  : tr("%1: %2, %3")
                                        .arg(QString::fromStdString(row.stage), shapeText(row.observed_shape),
                                             DivergencePainter::statusText(row.status));
        right->setToolTip(said);
        right->setData(Qt::AccessibleTextRole, said); // a screen reader hears the stage the row is of
        QColor tint, ink;
        if (held) {
            mark(right, false, tint, ink, style);
            buggy_->addItem(right);
            continue;
        }
        if (row.status == DivergenceStatus::Shape || row.status == DivergenceStatus::Error ||
            row.status == DivergenceStatus::Values)
            tint = DivergencePainter::statusFill(row.status, style);
        if (row.status != DivergenceStatus::Same)
            ink = DivergencePainter::statusColor(row.status, style);
        mark(right, isFirst, tint, ink, style);
        buggy_->addItem(right);
    }
    select();
}

void StageCompareLists::select()
{
    const QSignalBlocker b1(book_), b2(buggy_);
    book_->setCurrentRow(lesson_->selectedRow());
    buggy_->setCurrentRow(lesson_->selectedRow());
    if (QListWidgetItem* row = book_->currentItem()) // the row looked at, not the list's top, in view
        book_->scrollToItem(row, QAbstractItemView::PositionAtCenter);
}

} // namespace attnlab::ui
