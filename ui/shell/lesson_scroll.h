#pragma once
// A lesson step points at widgets (lessons.h's targets); on a 720-pixel projector they may sit under the
// fold of their page's scroll area. Each scroll area holding targets is scrolled so that all of them show,
// or, when together they are taller than it, so that the first starts at its top.
class QString;
class QWidget;

namespace attnlab::ui {

struct LessonStep;

void scrollTargetsIntoView(QWidget* window, const LessonStep& step);
// What scrollTargetsIntoView gave the step's targets beyond the page's own layout (the diagram's pane
// kept tall) goes back: the lessons dock closed.
void releaseLessonRoom(QWidget* window);

// A widget target's widget: the shown one of that object name, or with "prefix*" the first shown one whose
// name starts so; null when none is shown.
QWidget* shownLessonTarget(QWidget* window, const QString& name);

} // namespace attnlab::ui
