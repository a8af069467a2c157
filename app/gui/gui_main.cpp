// attention-lab: the GUI. The options set up the session exactly as a student would by hand, so
// --screenshot pictures (the README's, the tests') show what the app really shows.
#include "tensor/blas_kernel.h"
#include "shell/app_shell.h"
#include "shell/presenter_actions.h"
#include "shell/presenter_view.h"
#include "shell/guarded_application.h"
#include "model/job_failure.h"
#include "shell/shown_value.h"
#include "shell/presentation.h"
#include "call/call_parser.h"
#include "forward/stage_names.h"
#include "render/heatmap_source.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "features/poll/poll_actions.h"
#include "features/session.h"
#include "tensor/threads.h"
#include "features/debug/compare_actions.h"
#include "shell/exporters.h"
#include "shell/first_frame_probe.h"
#include "shell/text_options.h"
#include "shell/weights_actions.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>
#include <QPainter>
#include <QPalette>
#include <QStyle>
#include <QStatusBar>
#include <QStyleFactory>
#include <QThread>
#include <QEventLoop>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

[[noreturn]] void refuse(const QString& sentence)
{
    std::fprintf(stderr, "attention-lab: %s\n", qPrintable(sentence));
    std::exit(1);
}

std::int64_t positiveOption(const QCommandLineParser& parser, const QString& name)
{
    bool ok = false;
    const qlonglong v = parser.value(name).toLongLong(&ok);
    if (!ok || v < 1)
        refuse(
            QStringLiteral("--%1 takes a positive whole number, not '%2'.").arg(name, shownValue(parser.value(name))));
    return v;
}

// The window as it stands, with a modal dialog drawn where it sits.
void takeScreenshot(QWidget& window, const QString& path)
{
    QPixmap picture = window.grab();
    if (QWidget* dialog = QApplication::activeModalWidget(); dialog && dialog != &window) {
        QPainter painter(&picture); // a dialog is a window of its own: draw it where it stands
        const QRect at(window.mapFromGlobal(dialog->mapToGlobal(QPoint(0, 0))), dialog->size());
        painter.drawPixmap(at.topLeft(), dialog->grab());
        painter.setPen(QPen(QColor(0x60, 0x60, 0x60), 1));
        painter.drawRect(at.adjusted(-1, -1, 0, 0));
    }
    // Encoded whole before anything touches the disk, then written atomically: a full disk leaves the
    // old picture as it was rather than a truncated PNG.
    const QByteArray png = pngBytes(picture);
    if (png.isEmpty())
        refuse(QStringLiteral("could not write the screenshot to %1: it could not be encoded as PNG.").arg(path));
    QString error;
    if (!writeFileAtomically(path, png, &error, QStringLiteral("the screenshot")))
        refuse(error);
}

void setUpLook(QApplication& app)
{
    // A fixed light theme and large type: the app is made to be read from the back of a classroom.
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette palette = app.style()->standardPalette();
    app.setPalette(palette);
    QFont font = app.font();
    font.setFamily(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(16);
    app.setFont(font);
    app.setWindowIcon(QIcon(QStringLiteral(":/icons/attention-lab.svg")));
    // Desktops match the window to its desktop entry (and its icon) by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral(ATTNLAB_APP_ID));
}

} // namespace

int runApp(GuardedApplication& app)
{
    QApplication::setApplicationName(QStringLiteral("attention-lab"));
    QApplication::setApplicationVersion(QStringLiteral(ATTNLAB_VERSION));
    setUpLook(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Multi-head attention, stage by stage, as chapter 3 of "
                                                    "\"Build a Large Language Model (From Scratch)\" builds it."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {QStringLiteral("preset"), QStringLiteral("Start from a preset: %1.").arg(presetIds().join(", ")),
         QStringLiteral("NAME")},
        {QStringLiteral("call"),
         QStringLiteral("Start from a constructor call, e.g. \"MultiHeadAttention(768, 768, 1024, 0.0, 12)\"."),
         QStringLiteral("C")},
        {QStringLiteral("tokens"), QStringLiteral("Tokens in the input."), QStringLiteral("T")},
        {QStringLiteral("batch"), QStringLiteral("Sequences in the batch."), QStringLiteral("B")},
        {QStringLiteral("stage"),
         QStringLiteral("Show this stage, e.g. %1 or %2.")
             .arg(QLatin1String(stage::queries_view), QLatin1String(stage::attn_weights)),
         QStringLiteral("NAME")},
        {QStringLiteral("head"), QStringLiteral("Select this head (from 0)."), QStringLiteral("N")},
        {QStringLiteral("view"),
         QStringLiteral("Open this view: %1 (default: heatmaps when --stage names an attention matrix, else stepper).")
             .arg(pageIdsInWords()),
         QStringLiteral("VIEW")},
        {QStringLiteral("lesson"), QStringLiteral("Debugging tab: open contract, bugs or transfer."),
         QStringLiteral("NAME")},
        {QStringLiteral("bug"), QStringLiteral("Debugging tab: inject this bug, e.g. skip-contiguous."),
         QStringLiteral("NAME")},
        {QStringLiteral("no-transpose"),
         QStringLiteral("Weight transfer: write this line without .T (query, key, value)."), QStringLiteral("ROLE")},
        {QStringLiteral("omit"), QStringLiteral("Weight transfer: leave this line out (query, key, value)."),
         QStringLiteral("ROLE")},
        {QStringLiteral("measure-times"),
         QStringLiteral("Trade-offs tab: time the forward pass for every num_heads on start (as its button does).")},
        {QStringLiteral("train"),
         QStringLiteral("Trade-offs tab: train the book's GPT with Trained here's settings on start (as its Train "
                        "button does); --screenshot then waits for the sweep to finish.")},
        {QStringLiteral("screenshot"), QStringLiteral("Wait for the computation, save the window as a PNG, and exit."),
         QStringLiteral("FILE.png")},
        {QStringLiteral("theme"),
         QStringLiteral("Colours for this run: light, dark, high-contrast or system (View > Theme keeps a choice)."),
         QStringLiteral("THEME")},
    });
    addShellOptions(parser);   // --open, --save-session, --presentation, --guide (ui/shell/app_shell.h)
    addWeightsOptions(parser); // --weights, --layer, --weights-dialog (ui/shell/weights_actions.h)
    addCompareOptions(parser); // --compare FILE (ui/shell/compare_actions.h)
    addTextOptions(parser);    // --model, --text (ui/shell/text_options.h)
    addPollOptions(parser);    // --ask-class and its --class-* (ui/features/poll/poll_actions.h)
    parser.process(app);
    // One core stays with the GUI thread: on a two-core laptop a second engine thread (and its
    // OpenMP spin-wait) would starve painting, and small edits gain nothing from it.
    set_engine_threads(std::max(1, QThread::idealThreadCount() - 1));

    Session session;
    if (parser.isSet("preset") && parser.isSet("call"))
        refuse(QStringLiteral("use either --preset or --call, not both."));
    const QString presetId = parser.isSet("preset") ? parser.value("preset") : QStringLiteral("gpt2-small");
    const Preset* preset = findPreset(presetId);
    if (!preset)
        refuse(QStringLiteral("there is no preset '%1'; the presets are %2.")
                   .arg(shownValue(presetId), presetIds().join(", ")));
    session.document()->applyPreset(*preset);
    if (const QString refused = applyStartupState(parser, session); !refused.isEmpty())
        refuse(refused);
    // A call that does not parse, or parses into settings that do not validate, is what the app is
    // built to explain: it goes to the call line as if typed there, and the window opens on its message.
    if (parser.isSet("call"))
        session.document()->setCallText(parser.value("call"));
    std::int64_t batch = session.document()->batch(), tokens = session.document()->numTokens();
    if (parser.isSet("batch"))
        batch = positiveOption(parser, "batch");
    if (parser.isSet("tokens"))
        tokens = positiveOption(parser, "tokens");
    session.document()->setInputShape(batch, tokens);
    if (const QString refused = applyStartupWeights(parser, session); !refused.isEmpty())
        refuse(refused);
    if (const QString refused = applyStartupText(parser, session); !refused.isEmpty())
        refuse(refused);

    if (parser.isSet("stage") && !session.trace()->hasErrors()) { // settings in error have no stages yet to name
        const auto names = stage_names(session.document()->config(),
                                       session.document()->training() && session.document()->config().dropout > 0);
        QStringList valid;
        for (const auto& n : names)
            valid << QString::fromStdString(n);
        if (!valid.contains(parser.value("stage")))
            refuse(QStringLiteral("this module has no stage '%1'; its stages are %2.")
                       .arg(shownValue(parser.value("stage")), valid.join(", ")));
        session.view()->setStageByName(parser.value("stage"));
        // An attention matrix is best seen as heatmaps, one per head: open them unless told otherwise.
        if (const auto kind = stage_facts(parser.value("stage").toStdString()).matrix; kind && !parser.isSet("view")) {
            session.view()->setHeatmapKind(*kind);
            session.view()->setTab(ViewMode::Heatmaps);
        }
    }
    if (parser.isSet("head")) {
        bool ok = false;
        const int h = parser.value("head").toInt(&ok);
        const int heads = head_count(session.document()->config());
        if (!ok || h < 0 || h >= heads)
            refuse(QStringLiteral("--head must be a head number from 0 to %1, not '%2'.")
                       .arg(heads - 1)
                       .arg(shownValue(parser.value("head"))));
        session.view()->setHead(h); // the session applies it when the trace arrives
    }
    const auto theme = parser.isSet("theme") ? themeNamed(parser.value("theme")) : std::optional<ThemeChoice>{};
    if (parser.isSet("theme") && !theme)
        refuse(QStringLiteral("--theme takes %1, not '%2'.")
                   .arg(themeNames().join(", "), shownValue(parser.value("theme"))));
    if (parser.isSet("view")) {
        const QString v = parser.value("view");
        const std::optional<ViewMode> view = viewNamed(v);
        if (!view)
            refuse(QStringLiteral("--view takes %1, not '%2'.").arg(pageIds().join(", "), shownValue(v)));
        session.view()->setTab(*view);
    }
    const QStringList lessons{QStringLiteral("contract"), QStringLiteral("bugs"), QStringLiteral("transfer")};
    if (parser.isSet("lesson") && !lessons.contains(parser.value("lesson")))
        refuse(
            QStringLiteral("--lesson takes %1, not '%2'.").arg(lessons.join(", "), shownValue(parser.value("lesson"))));
    std::optional<Bug> bug;
    std::vector<std::pair<TransferRole, bool>> transferEdits; // role, written (false: --omit, true: --no-transpose)
    try {
        if (parser.isSet("bug"))
            bug = bug_from_name(parser.value("bug").toStdString());
        for (const QString& role : parser.values("no-transpose"))
            transferEdits.emplace_back(role_from_name(role.toStdString()), true);
        for (const QString& role : parser.values("omit"))
            transferEdits.emplace_back(role_from_name(role.toStdString()), false);
    } catch (const std::exception& e) {
        refuse(QString::fromUtf8(e.what()));
    }
    if (bug || parser.isSet("lesson") || !transferEdits.empty() || parser.isSet("compare")) {
        session.view()->setTab(ViewMode::Debug);
        // Lesson choices are the session's: the Debugging tab shows whatever it holds.
        if (bug)
            session.document()->setBug(*bug);
        for (const auto& [role, written] : transferEdits)
            session.document()->setTransferLine(role, written, !written);
        session.view()->setDebugSection(parser.isSet("lesson")
                                            ? static_cast<DebugSection>(lessons.indexOf(parser.value("lesson")))
                                        : bug                     ? DebugSection::Bugs
                                        : parser.isSet("compare") ? DebugSection::YourCode
                                                                  : DebugSection::Transfer);
    }

    MainWindow window(&session); // AppShell sizes it to the screen
    QObject::connect(&app, &GuardedApplication::failed, &window,
                     [&window](const QString& sentence) { window.statusBar()->showMessage(sentence, 30000); });
    const QString screenshot = parser.value("screenshot");
    if (parser.isSet("measure-times")) {
        session.view()->setTradeoffsSection(TradeoffsSection::Measured);
        session.feature<TradeoffsState>()->measureTimings();
    }
    // Settings in error from the start are the picture's subject: a pass of the preset's settings
    // still running when --call replaced them may end refused by the engine, which is no reason to stop.
    const bool startsInError = session.trace()->hasErrors();
    followParts(session.parts(), &window, [&](ChangeFlags flags) {
        if (!screenshot.isEmpty() && !startsInError && (flags & ChangeFlag::Diagnostics) && !session.trace()->busy())
            for (const auto& d : session.trace()->diagnostics())
                if (d.code == DiagnosticCode::Engine)
                    refuse(QString::fromStdString(d.message));
    });
    AppShell shell(&window, &session, parser); // menus, sessions, undo, presentation, lessons
    if (theme)
        shell.presentation()->useForThisRun(*theme);
    if (QString error; !shell.poll()->startFromCommandLine(parser, &error))
        refuse(error);
    if (parser.isSet("train")) { // the page's own Train, so the sweep is what its form shows
        session.view()->setTab(ViewMode::Tradeoffs);
        session.view()->setTradeoffsSection(TradeoffsSection::Trained);
        session.feature<TradeoffsState>()->waitForSweep();
        if (auto* train = window.findChild<QAbstractButton*>(QStringLiteral("sweep-train")))
            train->click();
        const SweepJob* sweep = session.feature<TradeoffsState>()->sweep();
        if (!sweep->busy())
            refuse(sweep->error().isEmpty()
                       ? QStringLiteral("--train could not start: Trained here's settings are refused on its page.")
                       : sweep->error());
    }
    exitAfterFirstFrameWhenAsked(&window); // the start-up benchmark's probe
    window.show();
    // The picture is taken once the Session is settled -- the trace, what the shown tab computes besides
    // and the heatmaps' pictures are in, and the views have taken them -- after AppShell's own waits
    // (a lesson step's check, a saved session), which were asked for first.
    // What the last changes posted -- layout passes, scroll bars a text view adjusts once its lines are laid
    // out -- runs first, so the picture has what a person would see: four turns of the event loop itself.
    // (processEvents called from here would not do: this runs inside a posted call, and events posted since
    // wait for it to return -- the sweep's reading, set as training finished, was pictured cut to one line.)
    // Should that have started a computation after all, the picture waits for it too.
    std::function<void(int)> shoot = [&](int turnsLeft) {
        if (turnsLeft > 0)
            return QTimer::singleShot(0, &window, [&shoot, turnsLeft] { shoot(turnsLeft - 1); });
        if (session.computing())
            return session.whenSettled(&window, [&shoot] { shoot(4); });
        takeScreenshot(window, screenshot);
        if (PresenterView* presenter = shell.presenter()->view()) { // --presenter: the teacher's window too
            QString path = screenshot;
            if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
                path.chop(4);
            takeScreenshot(*presenter, path + QStringLiteral("-presenter.png"));
        }
        QApplication::exit(0);
    };
    if (!screenshot.isEmpty())
        session.whenSettled(&window, [&shoot] { shoot(4); });
    return QApplication::exec();
}

int main(int argc, char** argv)
{
    attnlab::choose_blas_kernel(argv); // before anything else: it may run the program again
    useOffscreenForHelp(argc, argv);   // ui/shell/app_shell.h
    GuardedApplication app(argc, argv);
    // Events are guarded by the application; this catches what the start-up code throws before the loop.
    try {
        return runApp(app);
    } catch (...) {
        refuse(currentFailureSentence());
    }
}
