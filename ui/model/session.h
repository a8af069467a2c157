#pragma once
// The GUI's single source of truth: the requested experiment, the last good trace, and where the
// student is looking (stage, head, batch, view). Widgets edit it through setters and redraw on
// changed(flags), the way a document model drives its views. The forward pass runs on a worker
// thread (forward_job.h); the newest edit wins, cancelling stale work, and cancel() stops it on request.
//
// After a cancel the settings stay as the student typed them; trace() is still the previous result,
// and cancelled() and a "cancelled" warning say so until recompute() or the next edit runs them.
// The members are defined in three files: session.cpp (settings and diagnostics),
// session_compute.cpp (running, cancelling) and session_view.cpp (where the student looks).
#include "call/call_parser.h"
#include "forward/experiment.h"
#include "forward/trace.h"
#include "gpt/head_measures.h"
#include "lessons/contract.h"
#include "lessons/predict.h"
#include "forward/follow.h"
#include "model/page_choices.h"
#include "model/study_state.h"
#include "model/lesson_state.h"
#include "model/view_mode.h"
#include "render/heatmap_source.h"
#include "text/tokenizer.h"

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QTemporaryDir;

namespace attnlab {
struct Gpt2Plan;
}

namespace attnlab::ui {

class BugLesson;
class EquivalenceJob;
class ModelJob;
struct LayerAttention;
struct ModelRunResult;
class ForwardJob;
class HeatmapPictures;
class RecordingCompare;
class SweepJob;
class TimingsJob;
struct TrainedVariants;
struct ForwardResult;
struct Preset;

enum class ChangeFlag {
    Settings = 0x01, // config, batch, num_tokens, call text
    Trace = 0x02,    // a new trace arrived
    Stage = 0x04,
    Head = 0x08, // selected head or batch
    Diagnostics = 0x10,
    Busy = 0x20,
    View = 0x40,       // stepper / heatmaps / debug / designs / trade-offs, heatmap kind
    Lesson = 0x80,     // a choice of the Debugging tab's lessons (lesson_state.h)
    Results = 0x100,   // a side computation delivered: equivalence, timings, comparison, heatmap pictures
    Guide = 0x200,     // the guided lesson, its step or its progress (page_choices.h)
    Cell = 0x400,      // the heatmaps' keyboard cell
    Selection = 0x800, // the element followed through the layout steps
    Predict = 0x1000,  // Predict First: on or off, a stage answered or revealed, the tally
};
Q_DECLARE_FLAGS(ChangeFlags, ChangeFlag)

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    // --- settings ---
    const Config& config() const { return spec_.config; }
    std::int64_t batch() const { return spec_.batch; }
    std::int64_t numTokens() const { return spec_.num_tokens; }
    bool usesBookInput() const; // the book's six embedded tokens, when the config can take them
    void setConfig(const Config& config);
    // Sets one constructor slot or one input size (batch, num_tokens); qkv_bias takes 0/1.
    void setSlot(Slot slot, double value);
    void setModuleKind(ModuleKind kind);
    void setInputShape(std::int64_t batch, std::int64_t numTokens);
    // The call line: parsed on every keystroke; a call that binds replaces the config.
    void setCallText(const QString& text);
    QString callText() const { return callText_; }
    void applyFix(const Fix& fix);
    void applyCallFix(const std::string& call); // a diagnostic's call_fix: the whole call rewritten
    void applyPreset(const Preset& preset);
    void setMemoryBudget(std::uint64_t bytes);
    bool training() const { return spec_.training; }
    void setTraining(bool training);  // dropout acts only in training mode
    void setSeed(std::uint64_t seed); // torch.manual_seed(seed) before the module is constructed
    // torch.manual_seed(seed) right before the forward; nullopt: dropout continues the init's stream.
    void setDropoutSeed(std::optional<std::uint64_t> seed);
    // All settings as one value (session files, undo): the spec, the call line, the book-input wish.
    const ExperimentSpec& spec() const { return spec_; }
    // What runs: spec() with the input it resolves to (the book's tokens when they fit). The one way a
    // page or job builds a request, so the user's seed, weights file and text always come along.
    ExperimentSpec effectiveSpec() const;
    bool prefersBookInput() const { return preferBookInput_; }
    void restoreSettings(const ExperimentSpec& spec, const QString& callText, bool bookInput);

    // --- the Text input: a sentence through a GPT trained on The Verdict (session_text.cpp) ---
    bool usesTextInput() const { return spec_.input == InputSource::Text; }
    QString inputSummary() const;     // "the input is the book's six tokens, ...", as the settings say it
    QString seedUnusedReason() const; // why torch.manual_seed draws nothing here; empty when it draws
    // Studies layer `layer` of the variant with `numHeads` heads: its attention call, trained weights and x.
    // Throws nothing: a missing model file becomes a diagnostic.
    void useTrainedModel(int numHeads, int layer);
    void useSeededInput();                  // back to seeded random input (keeps the config)
    void setInputText(const QString& text); // the text box; tokens follow on every keystroke
    void setGptLayer(int layer);
    QString inputText() const { return QString::fromStdString(spec_.text); }
    int gptLayer() const { return spec_.gpt_layer; }
    int gptHeads() const;             // num_heads of the chosen model, 0 when none is loaded
    TokenizedText textTokens() const; // of inputText(), for the chips

    // --- a whole GPT opened from a file, GPT-2 or the book's chapter 5 model (session_model.cpp) ---
    // Loaded off the GUI thread (model_job.h); once in, the Text input runs it whole and the chosen layer's
    // trace is the one shown. A file that fails leaves the state as it was; modelProblem() says why.
    ModelJob* modelJob() const { return modelJob_; }
    void openModel(const Gpt2Plan& plan);
    // The Text input through the opened model again (its layer 0), after a trained one was picked; once
    // it is in, opening calls it too. Nothing when none is open.
    void useOpenedModel();
    // A saved session's checkpoint (session_state.cpp): opened as openModel() opens it, then `restore` (the
    // session's settings) runs with the opened file's path. One that cannot be opened runs `restore` at once
    // with `checkpoint`, and the Text input's diagnostics name it; empty: `restore` runs at once.
    void reopenModel(const QString& checkpoint, const std::function<void(const std::string& file)>& restore);
    bool usesOpenedModel() const;
    // The checkpoint a saved session names that could not be opened, while the Text input still goes
    // through it (until another model is picked): nothing runs, and the labels must not name a Verdict
    // GPT. Empty otherwise.
    QString unopenedCheckpoint() const;
    QString modelProblem() const { return modelProblem_; }
    int gptLayers() const; // layers of the chosen model, 0 when none
    // Every layer's heads on the text for the overview tab, computed while it is shown (null before).
    std::shared_ptr<const LayerAttention> layerAttention() const { return layerAttention_; }
    QString layerAttentionProblem() const { return overviewError_; }
    bool repeatText() const { return repeatText_; } // the overview reads the text twice over
    void setRepeatText(bool on);
    void openHead(int layer, int head); // that layer and head, in the heatmaps

    // --- what the settings mean ---
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    const std::optional<CallError>& callError() const { return callError_; }
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

    // --- where the student looks ---
    int stageIndex() const { return stageIndex_; }
    const Stage* stage() const;
    void setStageIndex(int index);
    bool setStageByName(const QString& name);
    // The next key: reveals the stage when it waits for a prediction (Predict First), else steps on.
    void nextStage();
    void previousStage() { setStageIndex(stageIndex_ - 1); }
    int head() const { return head_; }
    void setHead(int head);
    int headCount() const; // of the trace: heads of the module, 1 for single-head modules
    // Head and batch element: asked for while a trace is computing, they apply when it arrives.
    int batchIndex() const { return batchIndex_; }
    int batchCount() const; // sequences in the trace's input
    void setBatchIndex(int index);
    ViewMode view() const { return view_; }
    void setView(ViewMode view);
    AttentionMatrix heatmapKind() const { return heatmapKind_; }
    void setHeatmapKind(AttentionMatrix kind);

    // --- the Debugging tab's lessons: choices kept here, saved in session files, undone like settings ---
    const LessonState& lessonState() const { return lessons_; }
    void setLessonState(const LessonState& state);
    void setDebugSection(DebugSection section);
    void setBug(Bug bug);
    void setTransferLine(TransferRole role, bool written, bool transpose);
    void setTransferWidths(std::int64_t d_in, std::int64_t d_out);
    void setContractCall(std::optional<QString> call); // nullopt: follow the session's own call
    void setContractInput(std::int64_t d_in, std::int64_t num_tokens);
    void resetContract(); // back to the session's own call and input
    // The contract lesson's reading of its call (the pasted one, else the session's) against its input.
    const ContractReport& contractReport() const { return *contractReport_; }
    BugLesson* bugLesson() const { return bugLesson_; } // the chosen bug diagnosed on these settings
    // The transfer lesson's lines, run on its small modules and on GPT-2's c_attn (kTransferGpt2Width).
    // Computed when first asked for after the lines change (the Debugging tab asks): a start that never
    // opens the lesson does not pay for its 768-wide GPT-2 run.
    const TransferResult& transferResult() const;
    const TransferResult& gpt2TransferResult() const;

    // A trained model's heads on its text, told apart by what they do: each head's measures from the
    // trace's attention weights of the shown batch element (empty unless the input is a text).
    const std::vector<HeadMeasures>& headMeasures() const;

    // --- side computations, each on its own newest-request-wins worker (session_jobs.cpp) ---
    // The wrapper-vs-integrated equivalence of the current settings: computed while the Designs tab is
    // shown, else marked stale and computed when it is shown.
    EquivalenceJob* equivalence() const { return equivalence_; }
    bool equivalencePending() const; // stale or computing: what the tab shows is not yet of these settings
    // This machine's forward time for every num_heads of the current width: only when asked (seconds).
    void measureTimings();
    TimingsJob* timings() const { return timings_; }
    // The book's GPT trained here over num_heads x seeds (the Trade-offs tab's "Trained here"): started and
    // cancelled only by its own buttons, never by an edit or Esc, and its results saved with the session.
    SweepJob* sweep() const { return sweep_; }
    // A finished run of the sweep as the model under study in every tab (session_sweep_model.cpp): written
    // to a file of the Session's own, deleted with it, and opened as File > Open Model opens a file; the
    // overview of its heads is shown once it is in. One sentence when it cannot be (no such finished run, or
    // results read from a session file, which keep no weights); empty when it is on its way.
    QString studySweepRun(int runIndex);
    // That run saved at `path` as `attention-lab-cli train --save` writes it; one sentence on failure.
    QString saveSweepRun(int runIndex, const QString& path) const;
    // Compare With My Code: the learner's recording and how it compares (saved with the session).
    RecordingCompare* comparison() const { return comparison_; }
    HeatmapPictures* heatmapPictures() const { return pictures_; }
    // The shipped Verdict models on `text` through `layer` (four GPT forwards): computed when first
    // asked for that text and layer, then kept.
    const TrainedVariants& trainedVariants(const std::string& text, int layer);
    HeatmapScaleMode heatmapScale() const { return heatmapScale_; }
    void setHeatmapScale(HeatmapScaleMode mode);
    HeatmapCell heatmapCell() const { return heatmapCell_; }
    void setHeatmapCell(HeatmapCell cell); // kept within the trace's matrices
    TradeoffsSection tradeoffsSection() const { return tradeoffsSection_; }
    void setTradeoffsSection(TradeoffsSection section);
    // --- the element followed through the layout steps, and Predict First (session_study.cpp) ---
    const ElementSelection& selectedElement() const { return selection_; }
    void setSelectedElement(const ElementSelection& selection); // undone like a setting, saved in sessions
    // The selected element in the shown trace: every stage where it lives and what it comes from; null when
    // nothing is selected or the trace has no such element (another module, fewer tokens).
    const ElementFollow* followedElement() const;
    const PredictState& predict() const { return predict_; }
    void setPredictFirst(bool on);
    // The shown stage's question (null without a trace), and whether the stage may be shown: Predict
    // First is off, or the question was answered or revealed.
    const StageQuestion* question() const;
    bool stageRevealed() const;
    // Checks an answer to the shown stage's question; the first answer to a question goes into the tally.
    PredictionCheck answerStage(const StageAnswer& answer);
    const PredictionCheck* lastCheck() const; // the last answer's check, when it was to the shown stage
    // A trained model's heads that differ, at the weights stage: which looks at the previous token (else
    // nullopt). The first pick goes into the tally, as a shape does.
    std::optional<HeadQuestion> headQuestion() const;
    Verdict answerHead(int head);
    const Verdict* lastHeadCheck() const; // the last pick's verdict, when it was to the shown stage
    void revealStage(); // shown without an answer (the teacher's next key): nothing goes into the tally
    void resetPredictions();
    void restorePredict(const PredictState& state); // a session file's

    // --- the guided lessons' place and progress (page_choices.h) ---
    const GuideState& guide() const { return guide_; }
    void setGuide(const GuideState& guide);
    // Everything asked for is computed -- the trace, the side computation the shown tab needs, the
    // pictures -- and the views have taken it in. --screenshot, --save-session, lesson checks and tests
    // wait on settled(); computing() says whether one is still to come.
    bool computing() const;
    // Calls `then` once, the next time the state is settled (at once, queued, when it is already).
    void whenSettled(QObject* context, std::function<void()> then);

public Q_SLOTS:
    // Stops the running computation at its next stage boundary (and timings being measured); the last
    // good trace stays.
    void cancel();
    // Computes the current settings again (after a cancel: the Compute button).
    void recompute();

Q_SIGNALS:
    void changed(attnlab::ui::ChangeFlags flags);
    void settled();

private:
    void settingsEdited(ChangeFlags flags = ChangeFlag::Settings);
    void refreshDiagnostics();
    void addTextDiagnostics(); // the model cannot be found, or its trained weights no longer fit
    void compute();            // asks the job for the current settings, or drops the request when they have errors
    void adoptResult(const ForwardResult& result);
    void adoptTrace(std::shared_ptr<const Trace> trace);
    void connectJobs();                     // session_jobs.cpp
    void sideJobsFollow(ChangeFlags flags); // what an edit makes stale, asked for again when shown
    void refreshContract();
    void checkSettled(); // queued after every change: emits settled() once nothing is computing

    void connectModelJob(); // session_model.cpp
    void runOpenedModel();
    void addOpenedModelDiagnostics(); // its layer exists and the call is still its attention
    void adoptModelRun(const ModelRunResult& result);
    void overviewFollow(ChangeFlags flags);
    bool overviewPending() const;

    ExperimentSpec spec_;
    bool preferBookInput_ = false;
    QString callText_;
    std::optional<CallError> callError_;
    std::vector<Diagnostic> diagnostics_;
    std::optional<Diagnostic> engineError_;
    bool cancelled_ = false;

    std::shared_ptr<const Trace> trace_;
    std::string stageName_;
    int stageIndex_ = 0;
    int head_ = 0;
    int batchIndex_ = 0;
    int wantedHead_ = 0; // what setHead() asked for, applied to the next trace
    int wantedBatch_ = 0;
    ViewMode view_ = ViewMode::Stepper;
    AttentionMatrix heatmapKind_ = AttentionMatrix::Weights;

    LessonState lessons_;

    ForwardJob* job_;
    BugLesson* bugLesson_;
    EquivalenceJob* equivalence_;
    bool equivalenceStale_ = true;
    TimingsJob* timings_;
    SweepJob* sweep_;
    std::shared_ptr<QTemporaryDir> studyDir_; // the sweep runs opened for study
    RecordingCompare* comparison_;
    HeatmapPictures* pictures_;
    HeatmapScaleMode heatmapScale_ = HeatmapScaleMode::Auto;
    HeatmapCell heatmapCell_;
    TradeoffsSection tradeoffsSection_ = TradeoffsSection::Counted;
    mutable TransferResult transferResult_, gpt2TransferResult_;
    mutable std::optional<TransferSpec> lastTransfer_, lastGpt2Transfer_; // what each result ran
    std::shared_ptr<const ContractReport> contractReport_;
    GuideState guide_;
    std::shared_ptr<const TrainedVariants> trainedVariants_;
    struct MeasuresCache {
        const Trace* trace = nullptr;
        int batch = -1;
        std::vector<HeadMeasures> measures;
    };
    mutable MeasuresCache measures_; // of trace_ and batchIndex_, computed when first asked
    QString questionKey() const;     // "<canonical call> <stage>" of the shown stage
    ElementSelection selection_;
    struct FollowCache {
        const Trace* trace = nullptr;
        ElementSelection selection;
        std::optional<ElementFollow> followed;
    };
    mutable FollowCache follow_;
    PredictState predict_;
    QSet<QString> revealed_; // questions shown without an answer, this run only
    std::optional<std::pair<QString, PredictionCheck>> lastCheck_;
    std::optional<std::pair<QString, Verdict>> lastHeadCheck_;
    struct QuestionCache {
        const Trace* trace = nullptr;
        std::string stage;
        std::optional<StageQuestion> question;
    };
    mutable QuestionCache question_;
    bool settleQueued_ = false;
    ModelJob* modelJob_ = nullptr;
    std::shared_ptr<const LayerAttention> layerAttention_;
    QString modelProblem_, overviewError_;
    QPointer<QObject> reopening_;                // while reopenModel() waits for its checkpoint
    std::string unopenedPath_, unopenedProblem_; // a saved session's checkpoint that could not be opened, and why
    bool repeatText_ = false;
    bool overviewStale_ = true;
};

} // namespace attnlab::ui

Q_DECLARE_OPERATORS_FOR_FLAGS(attnlab::ui::ChangeFlags)
