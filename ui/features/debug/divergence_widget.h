#pragma once
// Thin host for DivergencePainter: shows the lesson's selected stage, expected against observed.
#include <QWidget>

namespace attnlab::ui {

class BugLesson;
struct DivergenceCard;

class DivergenceWidget : public QWidget {
    Q_OBJECT
public:
    explicit DivergenceWidget(BugLesson* lesson, QWidget* parent = nullptr);
    // As tall as its minimum: a page taller than its scroll area is given its preferred height, and a taller
    // card went under a 720-pixel projector's fold; with room to spare the card stretches into it.
    QSize sizeHint() const override { return {480, 300}; }
    bool card(DivergenceCard& out) const; // what is drawn now; false when nothing is

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    BugLesson* lesson_;
};

} // namespace attnlab::ui
