#pragma once
// One colour per head, shared by the shape diagram, the design layouts and the heatmaps, so "head 3"
// looks the same in the split of d_out, in the num_heads axis and around its heatmap. The colours are
// chosen to stay apart under simulated protanopia, deuteranopia and tritanopia (see head_colors.cpp);
// the head number is drawn beside every colour all the same, and beyond twelve heads the colours
// repeat and only the number tells heads apart.
#include <QColor>
#include <QString>

namespace attnlab::ui {

// How many heads get colours of their own; head h and head h + kDistinctHeadColors share one.
inline constexpr int kDistinctHeadColors = 12;

// Head h's colour. It does not depend on numHeads: the list is ordered so that every prefix of it
// (the first n colours, for n heads) is as far apart as the optimisation could make it.
QColor headColor(int head, int numHeads);
QColor headColor(int head);
// What is written beside the colour: "head 3", or "h3" where room is short.
QString headLabel(int head);
QString headShortLabel(int head);
// Black or white, whichever reads better on the head's colour (at least 4.5:1 for every head).
QColor headLabelInk(const QColor& fill);

} // namespace attnlab::ui
