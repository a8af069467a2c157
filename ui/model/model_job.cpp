#include "model/model_job.h"

#include "gpt/gpt_forward.h"
#include "model/job_failure.h"
#include "model/latest_worker.h"
#include "tensor/error.h"
#include "text/gpt2_tokenizer_files.h"

#include <QCoreApplication>

namespace attnlab::ui {

namespace {

// What the overview keeps of a forward: the full weights go, a thumbnail and four numbers per head stay.
std::shared_ptr<const LayerAttention> summarise(const GptModel& model, const GptForward& f,
                                                const std::vector<std::int64_t>& ids, bool repeated)
{
    auto out = std::make_shared<LayerAttention>();
    out->model = model.name;
    out->ids = ids;
    out->repeated = repeated;
    for (const GptLayerRecord& layer : f.layers) {
        const std::vector<HeadMeasures> measures = head_measures(layer.attn_weights);
        const std::vector<std::optional<double>> induction = induction_scores(layer.attn_weights, ids);
        std::vector<LayerAttention::Head> heads;
        for (std::int64_t h = 0; h < layer.attn_weights.size(1); ++h) {
            const auto i = static_cast<std::size_t>(h);
            heads.push_back({attention_thumbnail(layer.attn_weights, 0, h, kThumbnailCells),
                             i < measures.size() ? measures[i] : HeadMeasures{}, induction[i]});
        }
        out->grid.push_back(std::move(heads));
    }
    return out;
}

} // namespace

ModelJob::ModelJob(QObject* parent)
    : QObject(parent), opener_(new LatestWorker(this)), runner_(new LatestWorker(this)),
      overview_(new LatestWorker(this))
{
    poll_.setInterval(100);
    connect(&poll_, &QTimer::timeout, this, [this] {
        if (const int done = done_->load(); done != shownDone_) {
            shownDone_ = done;
            Q_EMIT progressed();
        }
    });
}

ModelJob::~ModelJob() = default; // the workers (children) cancel their runs and wait for them

void ModelJob::open(const Gpt2Plan& plan, std::uint64_t budget)
{
    const std::string exeDir = QCoreApplication::applicationDirPath().toStdString();
    opener_->request([this, plan, budget, exeDir](const std::atomic<bool>*) -> LatestWorker::Delivery {
        std::shared_ptr<const OpenedModel> model;
        QString error;
        try {
            // The tokenizer's files counted by their sizes with the weights, before a byte of either is read.
            const bool bpe = text_reader_named(plan.tokenizer) == TextReader::Gpt2Bpe;
            const std::optional<Gpt2TokenizerFiles> files =
                bpe ? std::optional(gpt2_tokenizer_files_for(plan.file, exeDir)) : std::nullopt;
            check_gpt2_memory(plan, 1, {}, budget, false, files ? gpt2_tokenizer_bytes(*files) : 0);
            auto m = std::make_shared<OpenedModel>();
            m->plan = plan;
            m->model = std::make_shared<const GptModel>(load_gpt2_checkpoint(plan, budget));
            m->reader = text_reader(*m->model);
            if (files) {
                m->tokenizer = std::make_shared<const Gpt2Tokenizer>(read_gpt2_tokenizer(*files, budget));
                m->tokenizerBytes = gpt2_tokenizer_bytes(*files);
            }
            model = std::move(m);
        } catch (...) {
            error = currentFailureSentence();
        }
        return [this, model, error](LatestWorker::Outcome outcome) {
            if (outcome != LatestWorker::Outcome::Current)
                return; // another file was asked for since
            if (!model)
                return Q_EMIT openFailed(error);
            opened_ = model;
            Q_EMIT opened();
        };
    });
}

bool ModelJob::opening() const
{
    return opener_->busy();
}

void ModelJob::run(const ModelRun& run)
{
    *done_ = 0;
    *total_ = static_cast<int>(run.model->settings.n_layers);
    poll_.start();
    request(runner_, run, false);
}

void ModelJob::runOverview(const ModelRun& run)
{
    request(overview_, run, true);
}

void ModelJob::request(LatestWorker* worker, const ModelRun& run, bool overview)
{
    std::shared_ptr<std::atomic<int>> done = overview ? nullptr : done_;
    worker->request([this, run, overview, done](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        ModelRunResult result;
        try {
            std::vector<std::int64_t> ids = run.ids;
            if (run.repeated)
                ids.insert(ids.end(), run.ids.begin(), run.ids.end());
            GptForwardOptions options;
            if (run.traceLayer)
                options.full_traces = {*run.traceLayer};
            options.last_layer = static_cast<int>(run.model->settings.n_layers) - 1; // no logits: not shown
            options.cancel = cancel;
            if (done)
                options.progress = [done](int layers) { *done = layers; };
            if (run.plan)
                check_gpt2_memory(*run.plan, static_cast<std::int64_t>(ids.size()), options, run.budget, false,
                                  run.tokenizerBytes);
            GptForward f = gpt_forward(*run.model, run.eps, ids, options);
            result.layers = summarise(*run.model, f, ids, run.repeated);
            if (run.traceLayer)
                result.trace = std::make_shared<const Trace>(
                    std::move(*f.layers[static_cast<std::size_t>(*run.traceLayer)].trace));
        } catch (const Cancelled&) {
            result.cancelled = true;
        } catch (...) {
            result.error = currentFailureSentence();
        }
        return [this, result, overview](LatestWorker::Outcome outcome) mutable {
            if (outcome != LatestWorker::Outcome::Current) {
                result = ModelRunResult{};
                result.cancelled = outcome == LatestWorker::Outcome::CancelledByUser;
                result.stale = outcome == LatestWorker::Outcome::Stale;
            }
            if (overview)
                return Q_EMIT overviewFinished(result);
            if (!runner_->busy()) {
                poll_.stop();
                *done_ = *total_ = 0;
                shownDone_ = -1;
            }
            Q_EMIT finished(result);
        };
    });
}

void ModelJob::cancel()
{
    runner_->cancel();
    overview_->cancel();
}

bool ModelJob::busy() const
{
    return runner_->busy();
}

bool ModelJob::cancelling() const
{
    return runner_->cancelling();
}

bool ModelJob::overviewBusy() const
{
    return overview_->busy();
}

std::pair<int, int> ModelJob::progress() const
{
    return {done_->load(), total_->load()};
}

} // namespace attnlab::ui
