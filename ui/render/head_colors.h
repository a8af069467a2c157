#pragma once
// One colour per head, shared by the shape diagram and the heatmaps, so "head 3" looks the same in
// the split of d_out, in the num_heads axis and around its heatmap.
#include <QColor>

namespace attnlab::ui {

QColor headColor(int head, int numHeads);

} // namespace attnlab::ui
