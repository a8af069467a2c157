#pragma once
// One or two sentences per canonical stage, filled with the trace's own numbers, saying what the
// line of code did to the tensor: the stage table's words (forward/stage_table.h) as Qt strings.
#include "forward/trace.h"

#include <QString>

namespace attnlab::ui {

QString stageCaption(const Stage& stage, const Config& config);
// The one-line arithmetic the stage is about, e.g. "768 = 12 × 64"; empty when there is none.
QString stageFormula(const Stage& stage, const Config& config);

} // namespace attnlab::ui
