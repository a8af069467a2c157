#pragma once
// A GPT opened whole -- a GPT-2 checkpoint from Hugging Face or the book's chapter 5 model -- and its
// forward passes, both off the GUI thread. Opening reads the weights (after checking they fit) and the
// tokenizer beside them; the model opened before stays until the new one is in, so a file that fails
// leaves the window as it was. A run is gpt_forward on the text: every layer's attention, reduced to what
// the overview shows (thumbnails and measures), and the chosen layer's whole trace, which the Session
// shows as its own. Runs go through a LatestWorker: the newest text wins, a stale run is cancelled.
#include "forward/trace.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_text.h"
#include "gpt/head_measures.h"
#include "text/gpt2_tokenizer.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace attnlab::ui {

class LatestWorker;

struct OpenedModel {
    Gpt2Plan plan;
    std::shared_ptr<const GptModel> model;
    TextReader reader = TextReader::Gpt2Bpe;        // what its file says it reads (gpt/gpt_text.h)
    std::shared_ptr<const Gpt2Tokenizer> tokenizer; // GPT-2's, read beside it; null for the other readers
    std::uint64_t tokenizerBytes = 0;               // what it holds (gpt2_tokenizer_bytes), counted by every run
};

// Every head of every layer on one text, as the layers x heads overview shows them.
struct LayerAttention {
    struct Head {
        Tensor thumbnail; // (n, n), n <= kThumbnailCells: attention_thumbnail of the head
        HeadMeasures measures;
        std::optional<double> induction; // nullopt when no token of the text repeats
    };
    std::string model; // the model's name
    std::vector<std::int64_t> ids;
    bool repeated = false;               // the ids are the text's twice over
    std::vector<std::vector<Head>> grid; // [layer][head]
};

// At 1,024 tokens a head's weights are 4 MiB; the overview keeps a thumbnail of each, no larger than drawn.
inline constexpr std::int64_t kThumbnailCells = 64;

struct ModelRun {
    std::shared_ptr<const GptModel> model;
    std::optional<Gpt2Plan> plan; // a checkpoint's: its memory is checked before the run
    double eps = 1e-5;
    std::vector<std::int64_t> ids;
    std::optional<int> traceLayer; // the layer whose whole trace is kept
    bool repeated = false;
    std::uint64_t budget = UINT64_MAX;
    std::uint64_t tokenizerBytes = 0; // the opened model's tokenizer, held beside the run: counted with it
};

struct ModelRunResult {
    std::shared_ptr<const LayerAttention> layers;
    std::shared_ptr<const Trace> trace;
    QString error;
    bool cancelled = false;
    bool stale = false;
};

class ModelJob : public QObject {
    Q_OBJECT
public:
    explicit ModelJob(QObject* parent = nullptr);
    ~ModelJob() override;

    // Reads the plan's weights and tokenizer; opened() or openFailed() follows.
    void open(const Gpt2Plan& plan, std::uint64_t budget);
    std::shared_ptr<const OpenedModel> model() const { return opened_; }
    bool opening() const;

    void run(const ModelRun& run);         // the Session's trace and the overview's heads
    void runOverview(const ModelRun& run); // the overview's heads alone (the text repeated, the Verdict GPTs)
    void cancel();                         // both runs, at the next layer
    bool busy() const;                     // the Session's run
    bool cancelling() const;
    bool overviewBusy() const;
    // The running forward's layers done and its layers: (0, 0) when none runs.
    std::pair<int, int> progress() const;

Q_SIGNALS:
    void opened();
    void openFailed(const QString& sentence);
    void progressed(); // progress() moved on
    void finished(const attnlab::ui::ModelRunResult& result);
    void overviewFinished(const attnlab::ui::ModelRunResult& result);

private:
    void request(LatestWorker* worker, const ModelRun& run, bool overview);

    LatestWorker* opener_;
    LatestWorker* runner_;
    LatestWorker* overview_;
    std::shared_ptr<const OpenedModel> opened_;
    // Written by the worker after each layer, read here on a timer: no signal crosses from a thread that may
    // outlive this object's last event.
    std::shared_ptr<std::atomic<int>> done_ = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::atomic<int>> total_ = std::make_shared<std::atomic<int>>(0);
    QTimer poll_;
    int shownDone_ = -1;
};

} // namespace attnlab::ui
