#include "features/debug/bug_view.h"
#include "widgets/lesson_target.h"

#include "features/debug/bug_lesson.h"
#include "features/debug/debug_state.h"
#include "widgets/code_font.h"
#include "features/debug/divergence_widget.h"
#include "widgets/stack_when_narrow.h"
#include "widgets/themed.h"
#include "features/debug/stage_compare_lists.h"
#include "model/view_model.h"

#include <algorithm>

#include <QBoxLayout>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace attnlab::ui {

QString bugDiffHtml(const BugInfo& info, const RenderStyle& style)
{
    const auto line = [](const char* sign, const std::string& text, const QColor& ink, const QColor& fill,
                         bool strike) {
        const QString body = QString::fromStdString(text).toHtmlEscaped();
        return QStringLiteral(
                   "<tr><td style='background:%3; color:%2; padding:3px 8px; white-space:pre-wrap'>%1 %4</td></tr>")
            .arg(QString::fromUtf8(sign), cssColor(ink), cssColor(fill), strike ? "<s>" + body + "</s>" : body);
    };
    return QStringLiteral("<table cellspacing='0' width='100%'>") +
           line("−", info.book_line, style.differs, style.differsFill, true) +
           line("+", info.buggy_line, style.same, style.sameFill, false) + QStringLiteral("</table>");
}

BugView::BugView(DebugState* state, QWidget* parent) : QWidget(parent)
{
    auto* view = state->view();
    lesson_ = state->bugLesson(); // the session owns the lesson's state
    picker_ = new QComboBox;
    nameTarget(picker_, QStringLiteral("bug-picker"));
    picker_->setAccessibleName(tr("Bug"));
    // As wide as the page gives it, not as its longest entry: that made every debugging section wider
    // than a projector's page.
    picker_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    picker_->setMinimumContentsLength(20);
    picker_->setToolTip(tr("One line of the book's module changed: see where the forward pass first differs."));
    for (const BugInfo& b : bug_catalogue())
        picker_->addItem(QStringLiteral("%1 — %2").arg(QString::fromStdString(b.name), QString::fromStdString(b.title)),
                         static_cast<int>(b.bug));
    diff_ = new QLabel;
    nameTarget(diff_, QStringLiteral("bug-diff"));
    diff_->setTextFormat(Qt::RichText);
    useCodeFont(diff_);
    diff_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    diff_->setWordWrap(true); // a long line wraps at projector type instead of widening the page
    explanation_ = new QLabel;
    nameTarget(explanation_, QStringLiteral("bug-explanation"));
    explanation_->setWordWrap(true);
    input_ = new QLabel;
    nameTarget(input_, QStringLiteral("bug-input"));
    input_->setWordWrap(true);
    verdict_ = new QLabel;
    nameTarget(verdict_, QStringLiteral("divergence-verdict"));
    verdict_->setWordWrap(true);
    // While a lesson holds the verdict back, it offers Reveal as a link in its own text: a button beside it widened
    // the page past a projector's window. Links are reached by Tab, as the lesson panel's Reveal button.
    verdict_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    verdict_->setFocusPolicy(Qt::TabFocus);
    verdict_->setAccessibleDescription(
        tr("Where the buggy run first parts from the book's, or, while a guided lesson holds it back, a link to "
           "reveal it."));
    connect(verdict_, &QLabel::linkActivated, view, [view](const QString& link) {
        if (link == QLatin1String("reveal"))
            view->revealAnswer();
    });
    lists_ = new StageCompareLists(lesson_);
    diagram_ = new DivergenceWidget(lesson_);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("<b>Bug</b>")));
    top->addWidget(picker_, 1);
    lower_ = new QBoxLayout(QBoxLayout::LeftToRight);
    lower_->addWidget(lists_);
    lower_->addWidget(diagram_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(diff_);
    layout->addWidget(explanation_);
    layout->addWidget(input_);
    layout->addWidget(verdict_);
    layout->addLayout(lower_, 1);

    connect(picker_, &QComboBox::currentIndexChanged, lesson_,
            [this](int i) { lesson_->setBug(static_cast<Bug>(picker_->itemData(i).toInt())); });
    connect(lesson_, &BugLesson::changed, this, &BugView::refresh);
    followPalette(this, [this] { refresh(); });
    refresh();
}

void BugView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    lesson_->setActive(true);
}

void BugView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The detail card goes under the lists where it has no room beside them (projector type, the lessons
    // dock open): beside them it made the page wider than the window and was scrolled off to the right.
    stackWhenNarrow(lower_, width(), lists_->minimumSizeHint().width() + cardWidth() + 24);
}

int BugView::cardWidth() const
{
    return diagram_->minimumSize().expandedTo(diagram_->minimumSizeHint()).width();
}

QSize BugView::minimumSizeHint() const
{
    QSize m = QWidget::minimumSizeHint();
    if (lower_->direction() == QBoxLayout::LeftToRight)
        m.setWidth(std::max(m.width() - cardWidth() - lower_->spacing(), cardWidth()));
    return m;
}

void BugView::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    lesson_->setActive(false);
}

QString BugView::verdictText() const
{
    return verdict_->text();
}

void BugView::refresh()
{
    const BugInfo& info = bug_info(lesson_->bug());
    const int index = picker_->findData(static_cast<int>(lesson_->bug()));
    if (index != picker_->currentIndex()) {
        const QSignalBlocker block(picker_);
        picker_->setCurrentIndex(index);
    }
    const RenderStyle theme = styleFor(this);
    diff_->setText(bugDiffHtml(info, theme));
    explanation_->setText(QString::fromStdString(info.explanation));
    const auto& d = lesson_->diagnosis();
    const auto style = [&theme](const QColor& accent, const QColor& fill) {
        // In the window's type (no size of its own), so it grows with presentation mode and zoom.
        return QStringLiteral("border-left: 6px solid %1; background: %2; color: %3; padding: 6px 10px;")
            .arg(cssColor(accent), cssColor(fill), cssColor(theme.readable(theme.text, fill)));
    };
    if (!d) {
        input_->clear();
        verdict_->setText(lesson_->error());
        verdict_->setStyleSheet(style(theme.warning, theme.warningFill));
        return;
    }
    const Tensor& x = d->correct.stages.front().tensor;
    input_->setText(tr("Both runs: the same seeded weights and the same input x %1%2.")
                        .arg(QString::fromStdString(shape_to_string(x.shape())),
                             lesson_->capped() ? tr(" (the session's input, cut to at most %1 × %2 tokens so it "
                                                    "stays instant)")
                                                     .arg(BugLesson::kMaxBatch)
                                                     .arg(BugLesson::kMaxTokens)
                                               : QString()));
    if (lesson_->answerHeld()) { // the look of a held-back answer (widgets/held_answer_card.h)
        verdict_->setText(tr("<b>Answer held back</b> — which stage parts first is hidden until you "
                             "<a href='reveal'>reveal it</a>. Select rows to compare the two runs."));
        verdict_->setStyleSheet(style(theme.info, theme.infoFill));
    } else if (d->first) {
        verdict_->setText(tr("▶ <b>First divergence at <code>%1</code></b> (%2): %3")
                              .arg(QString::fromStdString(d->first->stage),
                                   QString::fromStdString(std::string(status_name(d->first->kind))),
                                   QString::fromStdString(d->first->message).toHtmlEscaped()));
        verdict_->setStyleSheet(style(theme.differs, theme.differsFill));
    } else {
        verdict_->setText(tr("✓ <b>No divergence with these settings</b>: %1")
                              .arg(QString::fromStdString(d->why_none).toHtmlEscaped()));
        verdict_->setStyleSheet(style(theme.same, theme.sameFill));
    }
}

} // namespace attnlab::ui
