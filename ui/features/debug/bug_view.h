#pragma once
#include "render/render_style.h"
// The "injected bugs" section of the Debugging tab: pick a bug from the catalogue, read its one-line
// diff and what it does, and see the book's run and the buggy run side by side with the first
// diverging stage marked, its expected and observed shapes, and PyTorch's message when it fails.
#include "lessons/bugs.h"

#include <QWidget>

class QBoxLayout;
class QComboBox;
class QLabel;

namespace attnlab::ui {

class BugLesson;
class DivergenceWidget;
class DebugState;
class StageCompareLists;

class BugView : public QWidget {
    Q_OBJECT
public:
    explicit BugView(DebugState* state, QWidget* parent = nullptr);
    BugLesson* lesson() const { return lesson_; }
    QComboBox* picker() const { return picker_; }
    StageCompareLists* lists() const { return lists_; }
    DivergenceWidget* diagram() const { return diagram_; }
    QString verdictText() const; // the banner: the first divergence, why there is none, or that it is held back
    QLabel* verdictLabel() const { return verdict_; } // held back, it links to Reveal

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

public:
    QSize minimumSizeHint() const override; // as narrow as the stacked lists and card: the page may wrap

private:
    void refresh();

    BugLesson* lesson_;
    QComboBox* picker_;
    QLabel* diff_;
    QLabel* explanation_;
    QLabel* input_;
    QLabel* verdict_;
    StageCompareLists* lists_;
    int cardWidth() const; // the least the detail card takes
    DivergenceWidget* diagram_;
    QBoxLayout* lower_; // the lists and the detail card: side by side where they fit, else stacked
};

// The one-line change as a diff: the book's line struck through in red, the buggy line in green.
QString bugDiffHtml(const BugInfo& info, const RenderStyle& style = RenderStyle::print());

} // namespace attnlab::ui
