#include "render/stage_captions.h"

namespace attnlab::ui {

QString stageFormula(const Stage& stage, const Config& c)
{
    return QString::fromStdString(stage_formula(stage.base_name, c));
}

QString stageCaption(const Stage& stage, const Config& c)
{
    return QString::fromStdString(stage_caption(stage.base_name, c));
}

} // namespace attnlab::ui
