#include "features/stepper/source_view.h"

#include "render/render_style.h"

#include "forward/module_source.h"
#include "features/stepper/stepper_state.h"
#include "widgets/code_font.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QResizeEvent>
#include <QTextBlock>

#include <algorithm>

namespace attnlab::ui {

SourceView::SourceView(StepperState* state, QWidget* parent) : QPlainTextEdit(parent), state_(state)
{
    setReadOnly(true);
    setCenterOnScroll(true); // the current line can sit mid-view even near the end
    // A narrow pane wraps a long line rather than cutting it at the edge (the view's last argument,
    // the softmax's dim, are what a stage is about).
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setAccessibleName(tr("The module's source code"));
    setFocusPolicy(Qt::TabFocus); // reached by Tab, never by a click: the arrow keys belong to the stepper
    useCodeFont(this);
    connect(state_, &StepperState::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Trace | ChangeFlag::Stage))
            refresh();
    });
    refresh();
}

void SourceView::changeEvent(QEvent* event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refresh(); // the highlighted line's colours come from the palette
}

QSize SourceView::minimumSizeHint() const
{
    const QSize base = QPlainTextEdit::minimumSizeHint();
    const QTextBlock block = line_ >= 0 ? document()->findBlockByNumber(line_) : QTextBlock();
    if (!block.isValid() || !block.layout())
        return base;
    const int lines = std::max(1, block.layout()->lineCount());
    const int height = lines * fontMetrics().lineSpacing() + 2 * static_cast<int>(document()->documentMargin()) +
                       2 * frameWidth() + contentsMargins().top() + contentsMargins().bottom() + 4;
    return {base.width(), std::max(base.height(), height)};
}

void SourceView::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        updateGeometry(); // the current line wraps into another number of lines
    if (line_ < 0)
        return;
    // A pane made smaller (a lesson giving the diagram above it room, the splitter dragged) keeps the
    // current line whole in view: once the wrapped lines are laid out at the new size, it is centred
    // again if it no longer shows whole.
    QMetaObject::invokeMethod(
        this,
        [this] {
            const QTextBlock block = document()->findBlockByNumber(line_);
            QTextCursor end(block);
            end.movePosition(QTextCursor::EndOfBlock);
            const QRect port = viewport()->rect();
            if (block.isValid() && (!port.contains(cursorRect(QTextCursor(block))) || !port.contains(cursorRect(end))))
                centerCursor();
        },
        Qt::QueuedConnection);
}

void SourceView::refresh()
{
    const auto trace = state_->trace()->trace();
    const Stage* stage = state_->view()->stage();
    if (!trace || !stage)
        return;
    if (static_cast<int>(trace->config.kind) != kind_) {
        kind_ = static_cast<int>(trace->config.kind);
        QStringList lines;
        for (const auto& l : module_source(trace->config.kind))
            lines << QString::fromStdString(l);
        setPlainText(lines.join('\n'));
    }
    line_ = stage->code_line;
    QList<QTextEdit::ExtraSelection> selections;
    if (line_ >= 0) {
        QTextEdit::ExtraSelection sel;
        const RenderStyle style = RenderStyle::fromPalette(palette(), QPalette::Base);
        sel.format.setBackground(style.lineFill);
        sel.format.setForeground(style.lineText);
        sel.format.setProperty(QTextFormat::FullWidthSelection, true);
        sel.cursor = QTextCursor(document()->findBlockByNumber(line_));
        selections << sel;
        setTextCursor(sel.cursor);
        centerCursor();
    }
    setExtraSelections(selections);
    updateGeometry(); // another line, maybe another height
    setAccessibleDescription(line_ >= 0 ? tr("Line %1, the current stage's: %2")
                                              .arg(line_ + 1)
                                              .arg(document()->findBlockByNumber(line_).text().trimmed())
                                        : tr("The book's code of this module; this stage has no line of its own."));
}

} // namespace attnlab::ui
