#include "features/heatmaps/heatmaps_state.h"

#include "features/heatmaps/heatmap_pictures.h"

namespace attnlab::ui {

HeatmapsState::HeatmapsState(const SessionParts& parts, QObject* parent)
    : FeatureState(parts, parent), pictures_(new HeatmapPictures(this))
{
    connect(pictures_, &HeatmapPictures::ready, this, &HeatmapsState::picturesReady);
    connect(pictures_, &HeatmapPictures::finished, this, &FeatureState::delivered);
}

bool HeatmapsState::computing() const
{
    return pictures_->busy();
}

} // namespace attnlab::ui
