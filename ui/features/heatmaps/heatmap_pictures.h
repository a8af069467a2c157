#pragma once
// The heatmaps' pictures of a big trace, rendered on a worker at the sizes they will be drawn: from
// 256 × 256 cells up a picture costs more than a frame, so the GUI thread only swaps finished ones in.
// All pictures of one request are delivered together, so a page never shows some heads of a new trace
// beside heads of the old one; a newer request overtakes a running one.
#include "render/colormap.h"
#include "render/heatmap_source.h"
#include "model/latest_worker.h"

#include <QImage>
#include <QObject>
#include <QSize>

#include <vector>

namespace attnlab::ui {

struct PictureRequest {
    HeatmapSlice slice;
    ColorScale scale;
    QSize size;
};

class HeatmapPictures : public QObject {
    Q_OBJECT
public:
    explicit HeatmapPictures(QObject* parent = nullptr);

    void request(std::vector<PictureRequest> pictures);
    // What is rendering is no longer wanted (the page drew a small trace itself).
    void cancel();
    bool busy() const { return worker_->busy(); }
    // The last delivered request's pictures, in its order.
    const std::vector<QImage>& images() const { return images_; }

Q_SIGNALS:
    void ready();    // new pictures are in images()
    void finished(); // after every computation, delivered or not: busy() may have changed

private:
    LatestWorker* worker_;
    std::vector<QImage> images_;
};

} // namespace attnlab::ui
