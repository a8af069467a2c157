// The Session's side computations -- the designs' equivalence, this machine's timings, the learner's
// recording, the heatmaps' pictures, the transfer lesson's run -- and the one signal that says
// everything asked for is computed. Each job is the Session's, never a page's: a page shows what the
// job delivered and asks the Session for more.
#include "model/equivalence_job.h"
#include "model/heatmap_pictures.h"
#include "model/recording_compare.h"
#include "model/session.h"
#include "model/sweep_job.h"
#include "model/timings_job.h"
#include "model/trained_variants.h"

#include <QMetaObject>

#include <algorithm>

namespace attnlab::ui {

void Session::connectJobs()
{
    equivalence_ = new EquivalenceJob(this);
    timings_ = new TimingsJob(this);
    comparison_ = new RecordingCompare(this);
    pictures_ = new HeatmapPictures(this);
    connectModelJob();
    const auto delivered = [this] { Q_EMIT changed(ChangeFlag::Results); };
    connect(equivalence_, &EquivalenceJob::finished, this, delivered);
    connect(timings_, &TimingsJob::started, this, delivered);
    connect(timings_, &TimingsJob::progressed, this, delivered);
    connect(timings_, &TimingsJob::finished, this, delivered);
    connect(comparison_, &RecordingCompare::changed, this, delivered);
    connect(pictures_, &HeatmapPictures::finished, this, delivered);
    sweep_ = new SweepJob(this); // its page follows its progress itself: ten a second would be noise for the rest
    connect(sweep_, &SweepJob::started, this, delivered);
    connect(sweep_, &SweepJob::finished, this, delivered);
    // Every change may be the last one of a burst: once nothing computes, settled() follows.
    connect(this, &Session::changed, this, [this](ChangeFlags flags) {
        sideJobsFollow(flags);
        overviewFollow(flags);
        if (!settleQueued_) {
            settleQueued_ = true;
            QMetaObject::invokeMethod(this, &Session::checkSettled, Qt::QueuedConnection);
        }
    });
    refreshContract();
}

void Session::sideJobsFollow(ChangeFlags flags)
{
    if (flags & ChangeFlag::Settings)
        equivalenceStale_ = true;
    if (flags & ChangeFlag::Settings) {
        // The contract's input follows the settings again, as its boxes did when they showed them.
        lessons_.contractDIn.reset();
        lessons_.contractTokens.reset();
    }
    if (flags & (ChangeFlag::Lesson | ChangeFlag::Settings))
        refreshContract();
    if (!equivalenceStale_ || view_ != ViewMode::Designs)
        return;
    equivalenceStale_ = false;
    const Config& c = spec_.config;
    if (!c.heads_split_d_out())
        return; // no matched-width wrapper: the tab says so from the settings alone
    equivalence_->request(effectiveSpec());
}

bool Session::equivalencePending() const
{
    return equivalenceStale_ || equivalence_->busy();
}

void Session::measureTimings()
{
    TimingQuery q;
    q.d_in = spec_.config.d_in;
    q.d_out = spec_.config.d_out;
    q.num_tokens = spec_.num_tokens;
    q.batch = spec_.batch;
    timings_->request(q);
}

void Session::setHeatmapScale(HeatmapScaleMode mode)
{
    if (mode == heatmapScale_)
        return;
    heatmapScale_ = mode;
    Q_EMIT changed(ChangeFlag::View);
}

void Session::setHeatmapCell(HeatmapCell cell)
{
    const int tokens = trace_ && !trace_->stages.empty() && trace_->stages.front().tensor.dim() >= 2
                           ? static_cast<int>(trace_->stages.front().tensor.size(-2))
                           : 1;
    cell.query = std::clamp(cell.query, 0, std::max(tokens - 1, 0));
    cell.key = std::clamp(cell.key, 0, std::max(tokens - 1, 0));
    if (cell == heatmapCell_)
        return;
    heatmapCell_ = cell;
    Q_EMIT changed(ChangeFlag::Cell);
}

void Session::setTradeoffsSection(TradeoffsSection section)
{
    if (section == tradeoffsSection_)
        return;
    tradeoffsSection_ = section;
    Q_EMIT changed(ChangeFlag::View);
}

void Session::setGuide(const GuideState& guide)
{
    if (guide == guide_)
        return;
    guide_ = guide;
    Q_EMIT changed(ChangeFlag::Guide);
}

// The lesson's modules are 3 × 2 on six tokens, and c_attn one 768-wide product: milliseconds, so each
// edit of the lines is run again the next time the tab asks.
const TransferResult& Session::transferResult() const
{
    if (!lastTransfer_ || !(*lastTransfer_ == lessons_.transfer)) {
        transferResult_ = run_transfer(lessons_.transfer, kTransferSeed);
        lastTransfer_ = lessons_.transfer;
    }
    return transferResult_;
}

const TransferResult& Session::gpt2TransferResult() const
{
    if (!lastGpt2Transfer_ || !(*lastGpt2Transfer_ == lessons_.transfer)) {
        gpt2TransferResult_ = run_gpt2_transfer(lessons_.transfer, kTransferGpt2Width, kTransferSeed);
        lastGpt2Transfer_ = lessons_.transfer;
    }
    return gpt2TransferResult_;
}

const std::vector<HeadMeasures>& Session::headMeasures() const
{
    const Stage* w = trace_ && usesTextInput() ? trace_->find(stage::attn_weights) : nullptr;
    if (!w) {
        measures_ = {};
        return measures_.measures;
    }
    if (measures_.trace != trace_.get() || measures_.batch != batchIndex_)
        measures_ = {trace_.get(), batchIndex_, head_measures(w->tensor, batchIndex_)};
    return measures_.measures;
}

const TrainedVariants& Session::trainedVariants(const std::string& text, int layer)
{
    // Tens of milliseconds for the four small models: on the GUI thread, once per text and layer.
    if (!trainedVariants_ || trainedVariants_->text != text || trainedVariants_->layer != layer)
        trainedVariants_ = std::make_shared<const TrainedVariants>(computeTrainedVariants(text, layer));
    return *trainedVariants_;
}

bool Session::computing() const
{
    return busy() || equivalence_->busy() || (view_ == ViewMode::Designs && equivalenceStale_) || timings_->busy() ||
           pictures_->busy() || overviewPending();
}

void Session::checkSettled()
{
    settleQueued_ = false;
    if (!computing())
        Q_EMIT settled();
}

void Session::whenSettled(QObject* context, std::function<void()> then)
{
    connect(this, &Session::settled, context, std::move(then), Qt::SingleShotConnection);
    if (!computing() && !settleQueued_) {
        settleQueued_ = true;
        QMetaObject::invokeMethod(this, &Session::checkSettled, Qt::QueuedConnection);
    }
}

} // namespace attnlab::ui
