#pragma once
// The Heatmaps tab's state: the pictures of a big trace's matrices, rendered off the GUI thread at the sizes the page
// draws them (heatmap_pictures.h) and delivered together.
#include "model/feature_state.h"

namespace attnlab::ui {

class HeatmapPictures;

class HeatmapsState : public FeatureState {
    Q_OBJECT
public:
    explicit HeatmapsState(const SessionParts& parts, QObject* parent = nullptr);

    HeatmapPictures* pictures() const { return pictures_; }
    bool computing() const override;
    bool pageBusy() const override
    {
        return false;
    } // the page shows its pictures when they are in; --screenshot waits
      // through computing()

Q_SIGNALS:
    void picturesReady(); // new pictures are in pictures()->images()

private:
    HeatmapPictures* pictures_;
};

} // namespace attnlab::ui
