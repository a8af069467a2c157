#pragma once
// What the screen tests check on a laid-out window, widget by widget: that it can be seen whole (or
// reached by scrolling), that its text fits the width it was given, that no two controls lie over each
// other. Each check returns why it failed, empty when it passed, for QVERIFY2.
#include <QList>
#include <QString>

class QScrollArea;
class QWidget;

namespace testing {

// Its object name (or class), and the start of its text for a label or a button.
QString describe(const QWidget* w);

// Empty when `w` can be seen whole: scrolled into view in each scroll area around it, its rectangle
// lies inside every ancestor up to the window (a child outside its parent is cut off). A widget
// larger than a scroll area's viewport counts when it is as wide as the viewport allows and its
// top-left corner shows, since the rest is then reachable by scrolling.
QString clippedReason(QWidget* w, QWidget* window);

// Empty when the text of `w` (a label that does not wrap, or a button) fits the width it was given:
// a fixed-width column whose bold title is wider than the column cuts the title off although the
// label itself lies inside the window.
QString cutTextReason(QWidget* w);

// Empty when no two visible controls or labels under one parent lie over each other: a box layout
// squeezed below its items' heights-for-width (wrapped selectors, a wrapped summary) stacks them.
QString overlapReason(QWidget* page);

// True when every widget of `widgets` is inside the scroll area's viewport as it is scrolled now
// (a card taller than the viewport counts when its top shows), without scrolling it.
bool inViewOf(QScrollArea* area, const QList<QWidget*>& widgets);

// Every visible label with text and every visible button of `page`, and the shape diagram.
QList<QWidget*> shownWidgets(QWidget* page);

} // namespace testing
