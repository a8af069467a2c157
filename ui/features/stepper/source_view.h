#pragma once
// The module's forward() as the book writes it, with the line that produced the current stage
// highlighted, so every picture is tied to a line of code.
#include <QPlainTextEdit>

namespace attnlab::ui {

class StepperState;

class SourceView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SourceView(StepperState* state, QWidget* parent = nullptr);
    int highlightedLine() const { return line_; } // index into module_source(kind); -1 when none
    // Never shorter than the current line, wrapped at the width it has: a splitter giving the diagram
    // room (a lesson, presentation mode) stops where the line would be cut.
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void refresh();

    StepperState* state_;
    int kind_ = -1;
    int line_ = -1;
};

} // namespace attnlab::ui
