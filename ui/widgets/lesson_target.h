#pragma once
// The widgets a guided lesson may point at, by the names the lesson texts use ("predict-card", "d_out",
// "head-heatmap-*"). A widget becomes a target by being named here, so the lessons look names up in this
// index rather than searching the window's widget tree.
#include <QString>

class QWidget;

// Names `widget` (its objectName too, which stylesheets and tests read) and enters it in the index; a
// widget deleted later leaves the index by itself.
void nameTarget(QWidget* widget, const QString& name);

// The first target, in the order they were named, that lies inside `within` and is called `name`, or
// whose name starts with `name` less its trailing '*'; with `shownOnly`, only one that is visible. Null
// when none is.
QWidget* lessonTarget(const QWidget* within, const QString& name, bool shownOnly);
