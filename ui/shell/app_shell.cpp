#include "shell/app_shell.h"
#include "widgets/lesson_target.h"
#include "widgets/scroll_into_view.h"
#include "features/poll/poll_actions.h"
#include "features/debug/compare_actions.h"
#include "features/debug/debug_view.h"
#include "shell/about_box.h"

#include "shell/export_actions.h"
#include "shell/lesson_handout_actions.h"
#include "shell/file_actions.h"
#include "shell/lesson_questions.h"
#include "shell/lesson_scroll.h"
#include "shell/user_guide.h"
#include "shell/lessons_panel.h"
#include "shell/main_window.h"
#include "shell/presentation.h"
#include "shell/presenter_actions.h"
#include "shell/screen_fit.h"
#include "shell/open_model_dialog.h"
#include "shell/config_panel.h"
#include "shell/diagnostics_panel.h"
#include "shell/text_input_panel.h"
#include "features/stepper/stepper_view.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_run_models.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/presets.h"
#include "features/session_state.h"
#include "model/undo_commands.h"
#include "shell/weights_actions.h"
#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

#include <functional>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace attnlab::ui {

namespace {

QSettings* settings()
{
    static QSettings* s = nullptr; // one per process; QSettings caches and syncs itself
    if (!s)
        s = new QSettings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab"), qApp);
    return s;
}

// Runs that only write files (pictures, sessions) must not disturb the user's remembered state.
bool batchRun(const QCommandLineParser& parser)
{
    return parser.isSet(QStringLiteral("screenshot")) || parser.isSet(QStringLiteral("save-session")) ||
           parser.isSet(QStringLiteral("export-handout"));
}

} // namespace

void useOffscreenForHelp(int argc, char** argv)
{
    if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        return;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version" || a == "-?")
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
}

void addShellOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("open"),
         QStringLiteral("Open a saved session (.attnlab.json); --call, --tokens, --stage, ... given as well apply on "
                        "top of it."),
         QStringLiteral("FILE")},
        {QStringLiteral("save-session"),
         QStringLiteral("Once the state is set up and computed, save it as a session file and exit (with "
                        "--screenshot, take the picture too)."),
         QStringLiteral("FILE")},
        {QStringLiteral("presentation"), QStringLiteral("Start in presentation mode: full screen, larger type (F5).")},
        {QStringLiteral("predict-first"),
         QStringLiteral("Start with View > Predict First on: each stage asks for its shape before it is shown.")},
        {QStringLiteral("guide"),
         QStringLiteral("Open the guided-lessons panel at this lesson: %1.").arg(lessonIds().join(", ")),
         QStringLiteral("LESSON")},
        {QStringLiteral("guide-step"),
         QStringLiteral("With --guide: go to this step (from 1), show it, and check it once computed."),
         QStringLiteral("N")},
        {QStringLiteral("export-handout"),
         QStringLiteral("With --guide: write the lesson's handout into this folder (a session file per step, its "
                        "questions as a GIFT quiz and a page to print) and exit."),
         QStringLiteral("FOLDER")},
        {QStringLiteral("presenter"),
         QStringLiteral("Open the presenter view (Alt+F5): with two screens, it goes to the primary one and the app to "
                        "the other, presenting; --screenshot FILE.png also saves it as FILE-presenter.png.")},
    });
    parser.addPositionalArgument(QStringLiteral("session"), QStringLiteral("A session file to open, as --open does."),
                                 QStringLiteral("[FILE.attnlab.json]"));
}

QString applyStartupState(const QCommandLineParser& parser, Session& session)
{
    const QString file = parser.isSet(QStringLiteral("open")) ? parser.value(QStringLiteral("open"))
                                                              : parser.positionalArguments().value(0);
    if (!file.isEmpty()) {
        QString error;
        const auto state = loadSessionFile(file, sessionFeatures(), &error);
        if (!state)
            return error;
        applyState(session, *state);
        return {};
    }
    for (const QString& name : parser.optionNames())
        if (name != QLatin1String("presentation"))
            return {}; // the command line says what to show
    const auto state =
        parseSession(settings()->value(QStringLiteral("session/last")).toByteArray(), sessionFeatures(), nullptr);
    if (!state)
        return {};
    applyState(session, *state);
    if (session.trace()->hasErrors()) // a run left with a broken setting starts clean instead of refusing to start
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    return {};
}

AppShell::AppShell(MainWindow* window, Session* session, const QCommandLineParser& parser, QObject* parent)
    : QObject(parent), window_(window), session_(session)
{
    history_ = new SettingsHistory(session_->document(), this);
    files_ = new FileActions(window_, session_, history_, this);
    weights_ = new WeightsActions(window_, session_, this);
    compare_ = new CompareActions(window_, session_, this);
    compare_->setClassCodeView(window_->debugView()->classCodeView());
    exports_ = new ExportActions(window_, session_, this);
    presentation_ = new PresentationMode(window_, this);
    QWidget* column = window_->configPanel(); // the settings column is the scroll area around the panel
    while (column && !qobject_cast<QScrollArea*>(column))
        column = column->parentWidget();
    presentation_->setSidePanel(column);
    presentation_->setSidePanelNeeded(session_->trace()->hasErrors());
    // What is wrong sits under the spin boxes, below the fold of a 720-pixel screen: bring it into
    // view once the cards are laid out.
    const auto showDiagnostics = [this, column] {
        auto* area = qobject_cast<QScrollArea*>(column);
        DiagnosticsPanel* panel = window_->diagnosticsPanel();
        if (!area || !panel || !session_->trace()->hasErrors() || !area->widget())
            return;
        // Taller than the column (presentation type on a 720-pixel screen), ensureWidgetVisible would
        // centre it and leave the fixes under the fold: its top goes to the top instead.
        scrollSpanIntoView(area, QRect(panel->mapTo(area->widget(), QPoint(0, 0)), panel->size()));
    };
    session_->whenSettled(this, showDiagnostics);
    // Again when the column's height changes: the window going full screen (presentation) and the type
    // growing both arrive after the first pass, and would leave the fixes under the fold.
    if (auto* area = qobject_cast<QScrollArea*>(column))
        connect(area->verticalScrollBar(), &QScrollBar::rangeChanged, this, showDiagnostics);
    followParts(session_->parts(), this, [this, showDiagnostics](ChangeFlags flags) {
        if (!(flags & ChangeFlag::Diagnostics))
            return;
        presentation_->setSidePanelNeeded(session_->trace()->hasErrors());
        session_->whenSettled(this, showDiagnostics);
    });
    lessons_ = new LessonsPanel(session_, window_);
    room_ = new DiagramRoom(window_->stepperView()->diagram(), this);
    dock_ = new QDockWidget(tr("Guided lessons"), window_);
    nameTarget(dock_, QStringLiteral("lessons-dock"));
    dock_->setWidget(lessons_);
    dock_->setAccessibleName(tr("Guided lessons"));
    dock_->setToolTip(tr("Short lessons that set the app up for you and check what you tried."));
    window_->addDockWidget(Qt::RightDockWidgetArea, dock_);
    dock_->hide();
    poll_ = new PollActions(window_, session_, this);
    window_->addDockWidget(Qt::RightDockWidgetArea, poll_->dock());
    // The lesson step on screen, when it has one right answer, is a question the class can be asked too.
    poll_->setLessonQuestion([this]() -> std::optional<poll::Question> {
        const LessonStep* step = lessons_->currentStep();
        if (!step || dock_->isHidden())
            return std::nullopt;
        return lessonClassQuestion(step->id, {session_, window_});
    });
    handouts_ = new LessonHandoutActions(window_, lessons_, session_, this);
    presenter_ = new PresenterActions(window_, lessons_, session_->poll(), presentation_, this);
    connect(lessons_, &LessonsPanel::stepShown, poll_, &PollActions::lessonStepChanged);
    connect(dock_, &QDockWidget::visibilityChanged, poll_, &PollActions::lessonStepChanged);
    followParts(session_->parts(), poll_, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            poll_->lessonStepChanged();
    });
    // What the step points at is brought into view once its page has the step's results laid out.
    const auto showTargets = [this] {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (const LessonStep* step = lessons_->currentStep(); step && dock_->isVisible())
                    scrollTargetsIntoView(window_, *room_, *step);
            },
            Qt::QueuedConnection);
    };
    connect(lessons_, &LessonsPanel::stepShown, this,
            [this, showTargets] { session_->whenSettled(this, showTargets); });
    // Presentation hides the settings column; while the open dock shows a step that points at a setting
    // in it (a spin box, the module box), the column stays, so the student can see what the step names.
    const auto wantSettings = [this] {
        const LessonStep* step = lessons_->currentStep();
        presentation_->setSidePanelWanted(step && !dock_->isHidden() && stepPointsInto(*step, window_->configPanel()));
    };
    connect(lessons_, &LessonsPanel::stepShown, this, wantSettings);
    connect(dock_, &QDockWidget::visibilityChanged, this, wantSettings);
    connect(dock_, &QDockWidget::visibilityChanged, this, [this] {
        if (dock_->isHidden())
            room_->give(nullptr);
    });
    connect(lessons_, &LessonsPanel::shownMe, this, [this, showTargets] { session_->whenSettled(this, showTargets); });
    connect(files_, &FileActions::message, window_,
            [this](const QString& m) { window_->statusBar()->showMessage(m, 8000); });
    connect(weights_, &WeightsActions::message, window_,
            [this](const QString& m) { window_->statusBar()->showMessage(m, 8000); });
    connect(compare_, &CompareActions::message, window_,
            [this](const QString& m) { window_->statusBar()->showMessage(m, 8000); });
    connect(handouts_, &LessonHandoutActions::message, window_,
            [this](const QString& m) { window_->statusBar()->showMessage(m, 8000); });
    connect(exports_, &ExportActions::message, window_,
            [this](const QString& m) { window_->statusBar()->showMessage(m, 8000); });
    buildMenus();
    // On a projector the stage is the picture: the menu bar goes (its keys stay, buildMenus), the status
    // bar (the call line says what is shown; Esc, then Cancel, stops a computation) and the text row unless
    // the input is a text or the lesson step points into it (a text keeps its switch and summary, its chips
    // only for such a step); the stepper gives its diagram most of the height.
    const auto fitRoom = [this] {
        const bool on = presentation_->presenting();
        window_->menuBar()->setVisible(!on);
        window_->statusBar()->setVisible(!on);
        if (TextInputPanel* text = window_->textInputPanel()) {
            const LessonStep* step = lessons_->currentStep();
            const bool pointed = step && !dock_->isHidden() && stepPointsInto(*step, text);
            text->setVisible(!on || session_->document()->usesTextInput() || pointed);
            text->setCompact(on && !pointed); // the sentence and its chips only where the step is about them
        }
        if (StepperView* stepper = window_->stepperView())
            stepper->setPresenting(on);
    };
    connect(presentation_, &PresentationMode::presentingChanged, this, fitRoom);
    connect(lessons_, &LessonsPanel::stepShown, this, fitRoom);
    connect(dock_, &QDockWidget::visibilityChanged, this, fitRoom);
    followParts(session_->parts(), this, [fitRoom](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            fitRoom();
    });

    const bool batch = batchRun(parser);
    fitToScreen(window_); // the designed size where the screen has room for it, else the screen's room
    if (!batch) {
        // A geometry remembered on a larger monitor is brought within this one.
        window_->restoreGeometry(settings()->value(QStringLiteral("window/geometry")).toByteArray());
        window_->restoreState(settings()->value(QStringLiteral("window/state")).toByteArray());
        keepOnScreen(window_);
        connect(qApp, &QApplication::aboutToQuit, this,
                [this] { rememberState(*window_, *session_, !presentation_->presenting()); });
    }
    // A session saved inside a lesson (a handout's exercise, say) opens with the lesson's panel at that step, its
    // answer held back again as entering the step would.
    const auto showSessionsLesson = [this] {
        if (session_->view()->guide().lesson.isEmpty() || !lessons_->lesson())
            return;
        lessons_->holdAgain();
        dock_->show();
    };
    connect(files_, &FileActions::opened, this, showSessionsLesson);
    if (parser.isSet(QStringLiteral("open")) || !parser.positionalArguments().isEmpty())
        showSessionsLesson();
    if (parser.isSet(QStringLiteral("guide"))) {
        lessons_->setLesson(parser.value(QStringLiteral("guide")));
        lessons_->setStep(parser.value(QStringLiteral("guide-step")).toInt() - 1);
        dock_->show();
        wantSettings(); // before the window shows: presentation below keeps the column from the start
        window_->resizeDocks({dock_}, {380}, Qt::Horizontal);
        if (parser.isSet(QStringLiteral("guide-step"))) { // show the step, then check it once it is computed
            lessons_->showMe();
            if (session_->feature<TradeoffsState>()->sweep()->busy()) // it trained: checked once trained
                session_->feature<TradeoffsState>()->waitForSweep();
            // A step holding its answer back is not checked: the room has not answered yet (a red ✘ on the
            // projector would say they had, and wrongly).
            session_->whenSettled(this, [this] {
                if (session_->view()->guide().held.isEmpty())
                    lessons_->check();
            });
        }
    }
    if (parser.isSet(QStringLiteral("weights-dialog"))) // once the window is up, as after File > Load Weights…
        QMetaObject::invokeMethod(
            this, [this, path = parser.value(QStringLiteral("weights"))] { weights_->openDialog(path); },
            Qt::QueuedConnection);
    if (parser.isSet(QStringLiteral("compare"))) // no dialog at start-up: a missing num_heads is said inline
        compare_->openRecording(parser.value(QStringLiteral("compare")), false);
    if (parser.isSet(QStringLiteral("compare-class"))) // a refused folder says why on the page
        compare_->openClassFolder(parser.value(QStringLiteral("compare-class")));
    if (parser.isSet(QStringLiteral("presentation")))
        presentation_->setPresenting(true);
    if (parser.isSet(QStringLiteral("predict-first")))
        session_->study()->setPredictFirst(true);
    if (parser.isSet(QStringLiteral("presenter"))) // once the window is up: it places the app beside the view
        QMetaObject::invokeMethod(
            this, [this] { presenter_->setOpen(true); }, Qt::QueuedConnection);
    // Once the window is up its frame is known, and opening the lessons dock may have asked for more
    // width than the screen has: bring it back within the screen (a full-screen window is the screen).
    const auto withinScreen = [this] {
        if (!(window_->windowState() & (Qt::WindowFullScreen | Qt::WindowMaximized)))
            keepOnScreen(window_);
    };
    QMetaObject::invokeMethod(this, withinScreen, Qt::QueuedConnection);
    connect(dock_, &QDockWidget::visibilityChanged, this,
            [this, withinScreen](bool) { QMetaObject::invokeMethod(this, withinScreen, Qt::QueuedConnection); });
    if (parser.isSet(QStringLiteral("export-handout")))
        handouts_->exportFromCommandLine(parser.value(QStringLiteral("guide")),
                                         parser.value(QStringLiteral("export-handout")));
    if (parser.isSet(QStringLiteral("save-session")))
        saveSessionWhenComputed(parser.value(QStringLiteral("save-session")),
                                !parser.isSet(QStringLiteral("screenshot")));
}

void AppShell::rememberState(const MainWindow& window, const Session& session, bool geometry)
{
    SessionState state = captureState(session);
    dropSweepModels(state.features); // megabytes have no place in the settings; a saved session file keeps them
    settings()->setValue(QStringLiteral("session/last"), serializeSession(state, sessionFeatures()));
    if (geometry) {
        settings()->setValue(QStringLiteral("window/geometry"), window.saveGeometry());
        settings()->setValue(QStringLiteral("window/state"), window.saveState());
    }
    settings()->sync();
}

void AppShell::buildMenus()
{
    QMenuBar* bar = window_->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    files_->populateMenu(file);
    file->addSeparator();
    weights_->populateMenu(file);
    auto* openModel =
        file->addAction(tr("Open &Model…"), this, [this] { OpenModelDialog(session_, {}, window_).exec(); });
    openModel->setToolTip(tr("Open a whole GPT -- GPT-2 from Hugging Face or the book's chapter 5 model -- and see "
                             "every layer's heads on your text."));
    compare_->populateFileMenu(file);
    file->addSeparator();
    exports_->populateMenu(file->addMenu(tr("&Export")));
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);
    quit->setToolTip(tr("Close Attention Lab; the current state comes back next time."));

    QMenu* edit = bar->addMenu(tr("&Edit"));
    QAction* undo = history_->stack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setToolTip(tr("Take back the last change to the settings."));
    QAction* redo = history_->stack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    redo->setToolTip(tr("Make the change you took back again."));
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = bar->addMenu(tr("&View"));
    presentation_->populateMenu(view);
    view->addSeparator();
    QAction* predict = view->addAction(tr("&Predict First"));
    predict->setObjectName(QStringLiteral("predict-first"));
    predict->setCheckable(true);
    predict->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    predict->setToolTip(tr("Each stage asks for its shape before it shows it; the tally counts the answers."));
    predict->setChecked(session_->study()->predict().on);
    connect(predict, &QAction::toggled, session_->study(), &StudyModel::setPredictFirst);
    followParts(session_->parts(), predict, [this, predict](ChangeFlags flags) {
        if (flags & ChangeFlag::Predict) {
            const QSignalBlocker quiet(predict);
            predict->setChecked(session_->study()->predict().on);
        }
    });
    window_->addAction(predict); // its key works with the menu bar hidden (presentation)
    QAction* toggle = dock_->toggleViewAction();
    toggle->setText(tr("Guided &Lessons Panel"));
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    toggle->setToolTip(tr("Show or hide the guided lessons."));
    view->addAction(toggle);
    view->addAction(poll_->toggleAction());
    window_->addAction(poll_->toggleAction()); // its key works with the menu bar hidden (presentation)
    view->addAction(presenter_->toggleAction());
    window_->addAction(presenter_->toggleAction());

    QMenu* lessonsMenu = bar->addMenu(tr("&Lessons"));
    for (const Lesson& l : lessons()) {
        auto* a = lessonsMenu->addAction(l.title, this, [this, id = l.id] {
            lessons_->setLesson(id);
            dock_->show();
            dock_->raise();
        });
        a->setToolTip(tr("Open this lesson in the guided-lessons panel."));
    }
    lessonsMenu->addSeparator();
    lessonsMenu->addAction(handouts_->exportAction());

    QMenu* help = bar->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User Guide"), this, [this] {
        if (!guide_) { // one guide, raised when asked again
            guide_ = new UserGuide(window_);
            guide_->setAttribute(Qt::WA_DeleteOnClose);
        }
        guide_->show();
        guide_->raise();
        guide_->activateWindow();
    });
    guide->setObjectName(QStringLiteral("action-user-guide"));
    guide->setShortcut(QKeySequence::HelpContents);
    help->addSeparator();
    compare_->populateHelpMenu(help);
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Attention Lab"), this, [this] { showAboutBox(window_); });
    about->setMenuRole(QAction::AboutRole);
    about->setObjectName(QStringLiteral("about"));

    // A shortcut of a hidden menu bar's action does not fire: each is the window's too, so the keys work
    // while presentation mode hides the bar.
    std::function<void(QMenu*)> keysOf = [&](QMenu* menu) {
        for (QAction* a : menu->actions()) {
            if (a->menu())
                keysOf(a->menu());
            else if (!a->shortcuts().isEmpty())
                window_->addAction(a);
        }
    };
    for (QAction* a : bar->actions())
        if (a->menu())
            keysOf(a->menu());
}

void AppShell::saveSessionWhenComputed(const QString& path, bool exitAfter)
{
    // Settled: the trace is in and the session applied the requested head and batch element to it.
    session_->whenSettled(this, [this, path, exitAfter] {
        // The engine refused the settings (e.g. a weights file that does not fit the call): no trace
        // came, so say why and stop rather than save a state nobody asked for.
        for (const auto& d : session_->trace()->diagnostics())
            if (d.code == DiagnosticCode::Engine) {
                std::fprintf(stderr, "attention-lab: %s\n", d.message.c_str());
                std::exit(1); // at once: a --screenshot waiting on the same moment must not exit 0 after it
            }
        QString error;
        if (!saveSessionFile(path, captureState(*session_), sessionFeatures(), &error)) {
            std::fprintf(stderr, "attention-lab: %s\n", qPrintable(error));
            std::exit(1);
        } else if (exitAfter) {
            QApplication::exit(0);
        }
    });
}

} // namespace attnlab::ui
