#pragma once
// A lesson step points at widgets (lessons.h's targets); on a 720-pixel projector they may sit under the
// fold of their page's scroll area. Each scroll area holding targets is scrolled so that all of them show,
// or, when together they are taller than it, so that the first starts at its top.
class QWidget;

namespace attnlab::ui {

struct LessonStep;

void scrollTargetsIntoView(QWidget* window, const LessonStep& step);

} // namespace attnlab::ui
