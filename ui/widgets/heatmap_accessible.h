#pragma once
// The heatmap as a table a screen reader can read: rows are the query tokens, columns the key tokens,
// the headers the tokens' text, and each cell the value the hover readout shows ("masked" where the
// causal mask hid the key). Everything is read from the widget's cells and layout when asked, and cells are
// made one at a time as a reader visits them, so a 1,024-token head costs nothing up front.
#include <QString>

class QAccessibleInterface;

namespace attnlab::ui {

class HeatmapWidget;
struct HeatmapHit;

void installHeatmapAccessibility();                 // idempotent; every HeatmapWidget calls it
void notifyHeatmapCellFocus(HeatmapWidget* map);    // the keyboard moved the highlighted cell
QString heatmapCellText(const HeatmapHit& cell);    // "0.2345", "masked (−∞)", "masked, 0.000"
int heatmapCellsBuilt(QAccessibleInterface* table); // cells and headers made so far (tests: nothing up front)

} // namespace attnlab::ui
