#include "shell/main_window.h"
#include "widgets/lesson_target.h"
#include "widgets/tab_text_fit.h"

#include "shell/call_line.h"
#include "shell/compute_status.h"
#include "shell/keyboard_focus.h"
#include "shell/config_panel.h"
#include "features/debug/debug_view.h"
#include "features/designs/designs_view.h"
#include "shell/diagnostics_panel.h"
#include "features/heatmaps/heatmaps_view.h"
#include "model/model_job.h"
#include "features/session.h"
#include "features/stepper/stepper_view.h"
#include "features/tradeoffs/tradeoffs_view.h"
#include "model/weights_source.h"
#include "shell/text_input_panel.h"
#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollArea>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

// The tab pages are full of word-wrapped labels. A QTabWidget answers heightForWidth by asking every
// page, hidden ones included, so each label edit anywhere re-laid-out the text of every tab
// (about 30 ms per edit, more than the forward pass). The tabs fill the window's height anyway.
class ViewTabs : public QTabWidget {
public:
    bool hasHeightForWidth() const override { return false; }
    int heightForWidth(int) const override { return -1; }
};

} // namespace

MainWindow::MainWindow(Session* session, QWidget* parent) : QMainWindow(parent), session_(session)
{
    setWindowTitle(tr("Attention Lab"));
    callLine_ = new CallLine(session_);
    config_ = new ConfigPanel(session_);
    diagnostics_ = new DiagnosticsPanel(session_);

    // Left column: settings, and right under them what is wrong with them.
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(config_);
    leftLayout->addSpacing(8);
    leftLayout->addWidget(diagnostics_);
    leftLayout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFixedWidth(370);
    scroll->setFrameShape(QFrame::NoFrame);
    nameTarget(scroll, QStringLiteral("settings-column"));

    tabs_ = new ViewTabs;
    for (const FeatureInfo& info : featureRegistry()) {
        QWidget* page = info.createPage(session_->feature(info.view()));
        pages_.push_back(page);
        // On a 1280×720 projector with presentation type a page can be larger than its room: it
        // scrolls instead of pushing the window past the screen or cutting off what it shows.
        auto* area = new QScrollArea;
        nameTarget(area, QStringLiteral("page-scroll"));
        area->setWidget(page);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        // A tab's tooltip is its accessible description; Ctrl+PageDown/PageUp switch tabs from anywhere.
        const int tab = tabs_->addTab(area, info.title());
        tabs_->setTabToolTip(tab, info.tooltip());
    }
    QList<QStringList> titles;
    for (const FeatureInfo& info : featureRegistry())
        titles << info.titles();
    fitTabTexts(tabs_, titles, true); // shorter names where the whole row would not fit
    tabs_->setCurrentIndex(static_cast<int>(session_->view()->tab())); // a tab's index is its ViewMode
    connect(tabs_, &QTabWidget::currentChanged, session_,
            [this](int i) { session_->view()->setTab(static_cast<ViewMode>(i)); });

    auto* callRow = new QHBoxLayout;
    auto* callLabel = new QLabel(tr("<b>Call</b>"));
    callLabel->setBuddy(callLine_);
    callRow->addWidget(callLabel);
    callRow->addWidget(callLine_, 1);
    auto* right = new QVBoxLayout;
    right->addLayout(callRow);
    auto* central = new QWidget;
    right->addWidget(new CallErrorLabel(session_, central)); // a parent first: it shows and hides itself
    textInput_ = new TextInputPanel(session_);
    right->addWidget(textInput_);
    right->addWidget(tabs_, 1);

    auto* layout = new QHBoxLayout(central);
    layout->addWidget(scroll);
    layout->addLayout(right, 1);
    setCentralWidget(central);

    computeStatus_ = new ComputeStatus(session_, this);
    statusBar()->addWidget(computeStatus_->statusLabel(), 1);
    weights_ = new QLabel;
    weights_->setAccessibleName(tr("Weights in use"));
    statusBar()->addPermanentWidget(weights_);
    statusBar()->addPermanentWidget(computeStatus_); // a passing message never hides Cancel
    refreshWeightsLabel();

    bindKeys();
    new KeyboardFocus(this, tabs_);
    followParts(session_->parts(), this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::View)
            tabs_->setCurrentIndex(static_cast<int>(session_->view()->tab()));
        if (flags & ChangeFlag::View)
            enableStageKeys();
        if (flags & ChangeFlag::Settings)
            refreshWeightsLabel();
    });
}

StepperView* MainWindow::stepperView() const
{
    return page<StepperView>(ViewMode::Stepper);
}

HeatmapsView* MainWindow::heatmapsView() const
{
    return page<HeatmapsView>(ViewMode::Heatmaps);
}

DebugView* MainWindow::debugView() const
{
    return page<DebugView>(ViewMode::Debug);
}

DesignsView* MainWindow::designsView() const
{
    return page<DesignsView>(ViewMode::Designs);
}

TradeoffsView* MainWindow::tradeoffsView() const
{
    return page<TradeoffsView>(ViewMode::Tradeoffs);
}

bool MainWindow::pagesBusy() const
{
    for (const FeatureState* feature : session_->features())
        if (feature->pageBusy())
            return true;
    return false;
}

void MainWindow::bindKeys()
{
    // Window-wide, but text fields and spin boxes claim their own arrow keys first (ShortcutOverride),
    // so typing is never hijacked. PageDown/PageUp are what presentation clickers send.
    for (auto key : {Qt::Key_Right, Qt::Key_Space, Qt::Key_PageDown}) {
        stageKeys_ << new QShortcut(QKeySequence(key), this);
        connect(stageKeys_.back(), &QShortcut::activated, session_->study(), &StudyModel::nextStage);
    }
    for (auto key : {Qt::Key_Left, Qt::Key_PageUp}) {
        stageKeys_ << new QShortcut(QKeySequence(key), this);
        connect(stageKeys_.back(), &QShortcut::activated, session_->view(), &ViewModel::previousStage);
    }
    enableStageKeys();
}

void MainWindow::enableStageKeys()
{
    // A disabled shortcut lets its key through: the Debugging tab's lists and tables keep their arrows.
    const bool stepping = featureInfo(session_->view()->tab()).stepsStages;
    for (QShortcut* key : stageKeys_)
        key->setEnabled(stepping);
}

void MainWindow::keyPressEvent(QKeyEvent* event)
{
    // Not a shortcut: a key event reaches the window only when the focused widget passed it on, so
    // editors, item views and popups that use Esc keep it, dialogs are windows of their own, and
    // presentation mode's Esc shortcut (enabled only while presenting) comes first.
    if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier && session_->computing()) {
        session_->cancel();
        event->accept();
        return;
    }
    QMainWindow::keyPressEvent(event);
}

void MainWindow::refreshWeightsLabel()
{
    const ExperimentSpec& spec = session_->document()->spec();
    if (const QString unopened = session_->trace()->unopenedCheckpoint(); !unopened.isEmpty())
        weights_->setText(tr("Weights: none, %1 could not be opened") // nothing is seeded in its place
                              .arg(QString::fromStdString(gpt2_checkpoint_name(unopened.toStdString()))));
    else
        weights_->setText(session_->trace()->usesOpenedModel() // an opened checkpoint runs whole, with its own weights
                              ? tr("Weights: %1 layer %2, the whole model")
                                    .arg(QString::fromStdString(session_->trace()->modelJob()->model()->plan.name))
                                    .arg(spec.gpt_layer)
                              : weightsSummary(spec));
    weights_->setToolTip(spec.input == InputSource::Text ? QString::fromStdString(spec.gpt_model_path)
                         : spec.weights_path.empty()
                             ? tr("Seeded like nn.Linear's default initialisation; File > Load Weights… uses a file.")
                             : QString::fromStdString(spec.weights_path));
}

} // namespace attnlab::ui
