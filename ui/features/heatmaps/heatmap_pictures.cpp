#include "features/heatmaps/heatmap_pictures.h"

#include "render/heatmap_painter.h"

#include <memory>

namespace attnlab::ui {

HeatmapPictures::HeatmapPictures(QObject* parent) : QObject(parent), worker_(new LatestWorker(this)) {}

void HeatmapPictures::request(std::vector<PictureRequest> pictures)
{
    worker_->request([this, pictures = std::move(pictures)](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        auto images = std::make_shared<std::vector<QImage>>();
        for (std::size_t i = 0; i < pictures.size() && !*cancel; ++i)
            images->push_back(HeatmapPainter::renderImage(pictures[i].slice, pictures[i].scale, pictures[i].size));
        return [this, images](LatestWorker::Outcome outcome) {
            if (outcome == LatestWorker::Outcome::Current) {
                images_ = std::move(*images);
                Q_EMIT ready();
            }
            Q_EMIT finished();
        };
    });
}

void HeatmapPictures::cancel()
{
    worker_->cancel();
}

} // namespace attnlab::ui
