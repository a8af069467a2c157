#include "features/tradeoffs/sweep_panel.h"

#include "features/tradeoffs/sweep_run_models.h"
#include "widgets/lesson_target.h"

#include "features/tradeoffs/tradeoffs_state.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_curves_widget.h"
#include "features/tradeoffs/sweep_form.h"
#include "features/tradeoffs/sweep_heads_table.h"
#include "features/tradeoffs/sweep_reading.h"
#include "features/tradeoffs/sweep_table.h"
#include "widgets/themed.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QFileDialog>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

QString duration(double seconds)
{
    if (seconds < 90)
        return QObject::tr("%1 s").arg(std::max(1.0, std::round(seconds)));
    return QObject::tr("%1 min").arg(std::round(seconds / 60.0));
}

std::vector<SweepCurveSeries> seriesOf(const SweepResults& results)
{
    std::vector<SweepCurveSeries> series;
    if (results.runs.empty())
        return series;
    const bool grouped = sweepGrouped(results.settings);
    for (std::int64_t h : results.settings.headList())
        for (std::int64_t g : results.settings.kvGroupList(h)) {
            SweepCurveSeries s{h, {}, {}};
            // Over key/value heads at one num_heads, the legend names what differs.
            if (grouped)
                s.name = results.settings.headList().size() == 1
                             ? (g == 1 ? QObject::tr("1 key/value head") : QObject::tr("%1 key/value heads").arg(g))
                             : sweepVariantName(h, g, true);
            for (const SweepRun& r : results.runs)
                if (r.heads == h && r.kvHeads() == g && !r.evals.empty())
                    s.seeds.push_back(r.evals);
            series.push_back(std::move(s));
        }
    return series;
}

} // namespace

SweepPanel::SweepPanel(TradeoffsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    auto* intro = new QLabel(
        tr("<b>Train it here.</b> The book's chapter 4 GPTModel, trained from torch.manual_seed(seed) with AdamW on a "
           "task where heads matter, once per num_heads, key/value heads and seed, the runs side by side on every "
           "core. The width stays the same, so only how it is split into heads, and how many key/value heads the "
           "query heads share, changes."));
    intro->setWordWrap(true);
    form_ = new SweepForm;
    train_ = new QPushButton(tr("Train"));
    nameTarget(train_, QStringLiteral("sweep-train"));
    train_->setToolTip(tr("Train every num_heads × key/value heads × seed of these settings (the other tabs keep "
                          "working)."));
    cancel_ = new QPushButton(tr("Cancel"));
    nameTarget(cancel_, QStringLiteral("sweep-cancel"));
    cancel_->setToolTip(tr("Stop every run at its next step; the runs that finished stay in the table."));
    progress_ = new QProgressBar;
    nameTarget(progress_, QStringLiteral("sweep-progress"));
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    progress_->setAccessibleName(tr("Sweep progress"));
    status_ = new QLabel;
    nameTarget(status_, QStringLiteral("sweep-status"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(train_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(status_, 2);
    error_ = new QLabel;
    nameTarget(error_, QStringLiteral("sweep-error"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->hide();
    // The theme's warning ink, again after every theme switch.
    followPalette(error_, [this] { inkError(); });
    curves_ = new SweepCurvesWidget;
    nameTarget(curves_, QStringLiteral("sweep-curves"));
    table_ = new SweepTable;
    nameTarget(table_, QStringLiteral("sweep-table"));
    how_ = new QLabel;
    nameTarget(how_, QStringLiteral("sweep-how"));
    how_->setWordWrap(true);
    reading_ = new QLabel;
    nameTarget(reading_, QStringLiteral("sweep-reading"));
    reading_->setWordWrap(true);
    reading_->setTextFormat(Qt::RichText);
    headsReport_ = new QVBoxLayout;
    headsReport_->setObjectName(QStringLiteral("sweep-heads-report"));
    headsTable_ = new SweepHeadsTable;
    headsReport_->addWidget(headsTable_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(form_);
    layout->addLayout(buttons);
    layout->addWidget(error_);
    layout->addWidget(curves_, 3);
    layout->addWidget(reading_);
    layout->addWidget(table_);
    layout->addWidget(how_);
    layout->addLayout(headsReport_);

    SweepJob* job = state_->sweep();
    connect(train_, &QPushButton::clicked, this, &SweepPanel::train);
    connect(cancel_, &QPushButton::clicked, job, &SweepJob::cancel);
    connect(job, &SweepJob::started, this, [this, job] {
        form_->setSettings(job->results().settings); // a lesson's Show me starts one the form did not fill
        showResults();
    });
    connect(job, &SweepJob::progressed, this, &SweepPanel::showProgress);
    connect(job, &SweepJob::finished, this, [this, job] {
        if (job->hasResults() && !job->busy()) { // a session file's sweep: the form says what it trained
            form_->setSettings(job->results().settings);
            showRefusedModels();
        }
        showResults();
    });
    connect(headsTable_, &SweepHeadsTable::studyRequested, this,
            [this](int run) { showError(state_->studySweepRun(run)); });
    connect(headsTable_, &SweepHeadsTable::saveRequested, this, &SweepPanel::saveRun);
    connect(state_, &TradeoffsState::headsShownChanged, headsTable_, &SweepHeadsTable::showRun);
    if (job->hasResults()) { // restored before the page was built
        form_->setSettings(job->results().settings);
        showRefusedModels();
    }
    showResults();
}

void SweepPanel::showRefusedModels()
{
    QStringList refused; // models a session file kept but could not give back: said under the buttons
    for (const SweepRun& r : state_->sweep()->results().runs)
        if (!r.modelProblem.isEmpty())
            refused << r.modelProblem;
    if (!refused.isEmpty())
        showError(refused.join(QLatin1Char(' ')));
}

void SweepPanel::saveRun(int run)
{
    const SweepResults& r = state_->sweep()->results();
    if (run < 0 || run >= static_cast<int>(r.runs.size()))
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Trained Model"), sweepRunFileName(r, run),
                                                      tr("Safetensors (*.safetensors)"));
    if (!path.isEmpty())
        showError(state_->saveSweepRun(run, path));
}

void SweepPanel::showError(const QString& why)
{
    inkError();
    error_->setText(why);
    error_->setVisible(!why.isEmpty());
}

void SweepPanel::train()
{
    QString why;
    const auto settings = form_->settings(&why);
    SweepJob* job = state_->sweep();
    if (settings && !job->start(*settings))
        why = job->error();
    showError(why); // where the student is looking, until the next Train
}

void SweepPanel::inkError()
{
    error_->setStyleSheet(QStringLiteral("color: %1").arg(cssColor(styleFor(error_).warning)));
}

void SweepPanel::showProgress()
{
    const SweepJob* job = state_->sweep();
    train_->setEnabled(!job->busy());
    cancel_->setEnabled(job->busy() && !job->cancelling());
    progress_->setVisible(job->busy());
    if (job->busy()) {
        const double done = static_cast<double>(job->stepsDone()) / std::max<double>(1.0, job->stepsTotal());
        progress_->setValue(static_cast<int>(1000 * done));
        QString text =
            tr("%1 of %2 steps · %3").arg(job->stepsDone()).arg(job->stepsTotal()).arg(duration(job->elapsedSeconds()));
        if (job->cancelling())
            text += tr(" · cancelling…");
        else if (const auto left = job->secondsLeft())
            text += tr(" · about %1 left").arg(duration(*left));
        status_->setText(text);
    } else if (job->hasResults()) {
        const SweepResults& r = job->results();
        status_->setText(tr("%1 runs, %2 steps in %3%4")
                             .arg(r.runs.size())
                             .arg(job->stepsDone())
                             .arg(duration(r.wallSeconds))
                             .arg(r.cancelled ? tr(" (stopped)") : QString()));
    } else {
        status_->setText(tr("Nothing trained yet."));
    }
    curves_->setPainter(SweepCurvesPainter(seriesOf(job->results()), job->results().settings.steps));
    int finished = 0;
    for (const SweepRun& r : job->results().runs)
        finished += r.finished ? 1 : 0;
    if (finished == finishedShown_ && job->busy())
        return;
    finishedShown_ = finished;
    const std::vector<SweepRow> rows = sweepTable(job->results());
    table_->setRows(rows);
    QString how = job->hasResults() ? SweepTable::howText(job->results().settings.evalEvery()) : QString();
    if (const QString kept = sweepModelsSentence(job->results()); !kept.isEmpty() && !job->busy())
        how += QLatin1Char(' ') + kept; // what a saved session will hold of these models
    how_->setText(how);
    reading_->setText(job->busy() ? QString() : sweepReading(job->results(), rows));
    headsTable_->setResults(job->results());
    if (state_->headsShown() >= 0)
        headsTable_->showRun(state_->headsShown());
}

void SweepPanel::showResults()
{
    finishedShown_ = -1;
    showProgress();
}

} // namespace attnlab::ui
