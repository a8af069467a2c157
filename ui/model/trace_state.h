#pragma once
// The document run through the core: what its settings mean (diagnostics), the forward pass that computes them on a
// worker thread (forward_job.h) or the whole GPT opened from a file (model_job.h), and the last good trace. The newest
// edit wins, cancelling stale work, and cancel() stops it on request. Each change is one changed(): Trace, Diagnostics,
// Busy or Model.
//
// After a cancel the settings stay as the student typed them; trace() is still the previous result, and cancelled()
// and a "cancelled" warning say so until recompute() or the next edit runs them. The members are defined in
// trace_state.cpp (diagnostics, running, cancelling), trace_text.cpp (the Text input), trace_model.cpp (an opened
// GPT) and trace_labels.cpp (what the settings column says of them).
#include "call/call_parser.h"
#include "forward/experiment.h"
#include "forward/trace.h"
#include "gpt/head_measures.h"
#include "model/change_events.h"
#include "text/tokenizer.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace attnlab {
struct Gpt2Plan;
}

namespace attnlab::ui {

class DocumentModel;
class ForwardJob;
class ModelJob;
struct ForwardResult;
struct ModelRunResult;

class TraceState : public QObject {
    Q_OBJECT
public:
    explicit TraceState(DocumentModel* document, QObject* parent = nullptr);
    ~TraceState() override;

    // --- what the settings mean ---
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    bool hasErrors() const;

    // --- results ---
    std::shared_ptr<const Trace> trace() const { return trace_; }
    bool busy() const;
    bool cancelling() const;                      // cancel() was asked and the computation has not stopped yet
    bool cancelled() const { return cancelled_; } // the settings' computation was cancelled: trace() is older
    // The trace shown is not of the settings: the call does not bind, the settings have errors, or their
    // computation was cancelled, so no newer trace is coming. Pages that draw it say so (StaleTraceBanner).
    bool traceStale() const;
    QString traceCall() const;       // the call the shown trace is of, as the book writes it; empty without a trace
    QStringList tokenLabels() const; // one per token of the trace's input
    // A trained model's heads on its text, told apart by what they do: each head's measures from the trace's attention
    // weights of batch element `batch` (empty unless the input is a text).
    const std::vector<HeadMeasures>& headMeasures(int batch) const;

    // --- the Text input: a sentence through a GPT trained on The Verdict (trace_text.cpp) ---
    QString inputSummary() const;     // "the input is the book's six tokens, ...", as the settings say it
    QString seedUnusedReason() const; // why torch.manual_seed draws nothing here; empty when it draws
    // Studies layer `layer` of the variant with `numHeads` heads: its attention call, trained weights and x.
    // Throws nothing: a missing model file becomes a diagnostic.
    void useTrainedModel(int numHeads, int layer);
    void setInputText(const QString& text); // the text box; tokens follow on every keystroke
    int gptHeads() const;                   // num_heads of the chosen model, 0 when none is loaded
    int gptLayers() const;                  // layers of the chosen model, 0 when none
    TokenizedText textTokens() const;       // of the document's input text, for the chips

    // --- a whole GPT opened from a file, GPT-2 or the book's chapter 5 model (trace_model.cpp) ---
    // Loaded off the GUI thread (model_job.h); once in, the Text input runs it whole and the chosen layer's
    // trace is the one shown. A file that fails leaves the state as it was; modelProblem() says why.
    ModelJob* modelJob() const { return modelJob_; }
    void openModel(const Gpt2Plan& plan);
    // The Text input through the opened model again (its layer 0), after a trained one was picked; once
    // it is in, opening calls it too. Nothing when none is open.
    void useOpenedModel();
    // A saved session's checkpoint: opened as openModel() opens it, then `restore` (the session's settings) runs with
    // the opened file's path. One that cannot be opened runs `restore` at once with `checkpoint`, and the Text
    // input's diagnostics name it; empty: `restore` runs at once.
    void reopenModel(const QString& checkpoint, const std::function<void(const std::string& file)>& restore);
    bool usesOpenedModel() const;
    // A model shipped in the models folder (gpt/model_paths.h: "induction-h4"), opened as openModel() opens it, at
    // `layer` once in, then `then` runs; when it is in already, the Text input goes through it again at that layer
    // (and `then` runs at once). Returns why it cannot be opened (no such file, not a model), empty when it is
    // opening or in.
    QString useShippedModel(const QString& name, int layer, const std::function<void()>& then = {});
    // The checkpoint a saved session names that could not be opened, while the Text input still goes through it
    // (until another model is picked): nothing runs, and the labels must not name a Verdict GPT. Empty otherwise.
    QString unopenedCheckpoint() const;
    QString modelProblem() const { return modelProblem_; }
    QString openedCheckpoint() const; // the file of the opened model the Text input goes through; empty otherwise
    // The Text input through the opened model again (every layer's heads come along unless asked otherwise).
    void runOpenedModel();

public Q_SLOTS:
    // Stops the running computation at its next stage boundary; the last good trace stays.
    void cancel();
    // Computes the current settings again (after a cancel: the Compute button).
    void recompute();

Q_SIGNALS:
    void changed(attnlab::ui::ChangeFlags flags);
    // A run of the opened model delivered (the overview takes its layers from it).
    void modelRunFinished(const attnlab::ui::ModelRunResult& result);
    void modelRunStarted(); // runOpenedModel() asked the model job for a run
    void openedModelUsed(); // the Text input goes through the opened model from now on, at its layer 0

private:
    void settingsEdited(); // the document's settings changed: diagnostics again, and the computation asked for
    void refreshDiagnostics();
    void addTextDiagnostics();        // the model cannot be found, or its trained weights no longer fit
    void addOpenedModelDiagnostics(); // its layer exists and the call is still its attention
    void compute(); // asks the job for the current settings, or drops the request when they have errors
    void adoptResult(const ForwardResult& result);
    void connectModelJob();
    bool opensWithModel(const ExperimentSpec& spec) const;     // its Text input goes through the opened model
    TokenizedText tokensFor(const ExperimentSpec& spec) const; // its text, by the tokenizer its model reads with

    DocumentModel* document_;
    std::vector<Diagnostic> diagnostics_;
    std::optional<Diagnostic> engineError_;
    bool cancelled_ = false;
    std::shared_ptr<const Trace> trace_;
    ForwardJob* job_;
    ModelJob* modelJob_ = nullptr;
    QString modelProblem_;
    QPointer<QObject> reopening_;                // while reopenModel() waits for its checkpoint
    std::string unopenedPath_, unopenedProblem_; // a saved session's checkpoint that could not be opened, and why
    struct MeasuresCache {
        const Trace* trace = nullptr;
        int batch = -1;
        std::vector<HeadMeasures> measures;
    };
    mutable MeasuresCache measures_; // of trace_ and a batch element, computed when first asked
};

} // namespace attnlab::ui
