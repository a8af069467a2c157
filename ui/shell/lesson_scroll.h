#pragma once
// A lesson step points at widgets (lessons.h's targets); on a 720-pixel projector they may sit under the
// fold of their page's scroll area. Each scroll area holding targets is scrolled so that all of them show,
// or, when together they are taller than it, so that the first starts at its top.
#include <QObject>

class QSplitter;
class QString;
class QWidget;

namespace attnlab::ui {

struct LessonStep;
class ShapeDiagramWidget;

// A step pointing at the diagram's strides or badges keeps the diagram's pane of the splitter it shares
// with the code as tall as the drawing needs (lesson_scroll.cpp says why and how). The shell makes one,
// handing it the stepper page's diagram, so nothing searches the window for it.
class DiagramRoom : public QObject {
public:
    DiagramRoom(ShapeDiagramWidget* diagram, QObject* parent);
    // The room `step` asks for (none for null: the lessons dock closed, the pane goes back).
    void give(const LessonStep* step);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void apply();

    ShapeDiagramWidget* diagram_;
    QSplitter* splitter_ = nullptr; // found on first use: the page may be laid out after the shell
    QWidget* pane_ = nullptr;
    int want_ = 0;
    int compact_ = 0;
};

// Gives the diagram its room, then scrolls every scroll area holding one of the step's targets.
void scrollTargetsIntoView(QWidget* window, DiagramRoom& room, const LessonStep& step);

// A widget target's widget: the shown one of that object name, or with "prefix*" the first shown one whose
// name starts so; null when none is shown.
QWidget* shownLessonTarget(QWidget* window, const QString& name);

} // namespace attnlab::ui
