#pragma once
// The Trade-offs tab's state: this machine's forward time for every num_heads of the current width (timings_job.h,
// only when asked), the shipped Verdict models side by side (trained_variants.h), and the book's GPT trained here over
// num_heads x seeds (sweep_job.h): started and cancelled only by its own buttons, never by an edit or Esc, its results
// saved with the session ("sweep"), and a finished run opened as the model under study in every tab.
#include "model/feature_state.h"

#include <QString>

#include <memory>
#include <string>

class QTemporaryDir;

namespace attnlab::ui {

class SweepJob;
class TimingsJob;
struct TrainedVariants;

class TradeoffsState : public FeatureState {
    Q_OBJECT
public:
    explicit TradeoffsState(const SessionParts& parts, QObject* parent = nullptr);
    ~TradeoffsState() override;

    // This machine's forward time for every num_heads of the current width: only when asked (seconds).
    void measureTimings();
    const TimingsJob* timings() const { return timings_; }
    SweepJob* sweep() const { return sweep_; }
    // The shipped Verdict models on `text` through `layer` (four GPT forwards): computed when first asked for that
    // text and layer, then kept.
    const TrainedVariants& trainedVariants(const std::string& text, int layer);
    // A finished run of the sweep as the model under study in every tab: written to a file of the state's own,
    // deleted with it, and opened as File > Open Model opens a file; the overview of its heads is shown once it is in.
    // One sentence when it cannot be (no such finished run, or one read from a session file that kept no model of
    // it); empty when it is on its way.
    QString studySweepRun(int runIndex);
    // The run whose heads the page lists, chosen for the student (a lesson's Show me points at the variant its check
    // speaks of); -1: the page's own choice. The picker stays the student's to change.
    void showHeadsOf(int runIndex);
    int headsShown() const { return headsShown_; }
    // The model file a restored session studies instead of the checkpoint it names: when it was saved with a sweep
    // run under study, that run's kept model written anew (the file it named was this state's own temporary one,
    // gone with it). Empty otherwise; asked once by applyState, right after restoreSection, which forgets it.
    QString takeReopenedStudy();
    // That run saved at `path` as `attention-lab-cli train --save` writes it; one sentence on failure.
    QString saveSweepRun(int runIndex, const QString& path) const;

    // The running sweep (or the next to start) counts as work to come until it finishes, so settled() waits for it:
    // --train's screenshot, a lesson step entered from the command line whose Show me trains. Otherwise a sweep runs
    // beside everything, started and stopped only by its own buttons.
    void waitForSweep() { waitForSweep_ = true; }

    bool computing() const override;
    void cancel() override; // the timings: what was measured so far is dropped, the numbers shown before stay
    void saveSection(QJsonObject& file) const override;
    void restoreSection(const QJsonObject& file) override;
    // A file's "sweep", checked before anything is applied.
    static bool checkSection(const QJsonObject& file, QString* error);

Q_SIGNALS:
    void timingsChanged(); // started, progressed or finished
    void sweepStarted();
    void sweepProgressed(); // throttled: at most ten times a second
    void sweepFinished();
    void headsShownChanged(int runIndex);

private:
    TimingsJob* timings_;
    SweepJob* sweep_;
    std::shared_ptr<const TrainedVariants> trainedVariants_;
    std::shared_ptr<QTemporaryDir> studyDir_; // the sweep runs opened for study
    int headsShown_ = -1;
    int studiedRun_ = -1; // the run last opened for study, and its file: saved as the sweep's "studied" while open
    QString studiedPath_;
    QString reopenedStudy_; // see takeReopenedStudy()
    bool waitForSweep_ = false;
};

} // namespace attnlab::ui
