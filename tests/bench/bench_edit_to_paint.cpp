// Edit-to-paint latency of the real window: for each case, click the qkv_bias check box in the
// settings panel (a real edit: new weights, new trace, same size) and time it until the selected
// heatmap has painted the new trace into the window's backing store, every small multiple holding
// the new trace too (big heatmaps keep the old picture until a worker has rendered the new ones).
// Offscreen platform, so nothing reaches a screen: what is measured is edit → forward (on the GUI
// thread when tiny, else on the worker) → trace on the GUI thread → heatmaps rebuilt → repaint pass
// done. Timings are not tests: ctest runs only `--smoke`, one edit that must end in a paint.
//
//   QT_QPA_PLATFORM=offscreen build/tests/bench/bench_edit_to_paint [--edits 20] [--threads N]
//       [--cases book,book-v2,gpt2-16,gpt2-128,gpt2-1024,text-h4] [--smoke]
#include "edit_probe.h"

#include "shell/app_shell.h"
#include "features/debug/compare_actions.h"
#include "widgets/heatmap_widget.h"
#include "features/heatmaps/heatmaps_view.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "features/session.h"
#include "features/tradeoffs/sweep_job.h"
#include "tensor/threads.h"
#include "shell/weights_actions.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QCheckBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QCommandLineParser>
#include <QStandardPaths>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace attnlab;
using namespace attnlab::ui;
using attnlab::bench::EditTiming;
using attnlab::bench::ProbeApplication;

namespace {

struct Case {
    const char* id;
    const char* title;
    const char* preset;
    const char* call; // replaces the preset's call when set
    std::int64_t tokens;
    int gptHeads = 0; // > 0: the Text input through that trained variant; the edit is a keystroke in the text box
};

// The book's two six-token modules, then GPT-2 small at growing lengths (the quadratic part grows).
const Case kCases[] = {
    {"book", "book preset: MultiHeadAttention(3, 2, 6, 0.0, 2), 2 × 6 tokens", "book", nullptr, 0},
    {"book-v2", "book: SelfAttention_v2(3, 2), 6 tokens", "book", "SelfAttention_v2(3, 2)", 0},
    {"gpt2-16", "GPT-2 small (768, 768, 1024, 0.0, 12), 16 tokens", "gpt2-small", nullptr, 16},
    {"gpt2-128", "GPT-2 small, 128 tokens", "gpt2-small", nullptr, 128},
    {"gpt2-1024", "GPT-2 small, 1,024 tokens", "gpt2-small", nullptr, 1024},
    {"text-h4", "text through verdict-gpt-h4 layer 1, 63 ↔ 64 tokens, one keystroke", "book", nullptr, 63, 4},
};

// The story's first `tokens` tokens as text (the tokenizer splits them back into the same tokens).
QString storyPrefix(std::int64_t tokens)
{
    const auto words = split_text(verdict_story());
    QStringList out;
    for (std::int64_t i = 0; i < tokens && i < static_cast<std::int64_t>(words.size()); ++i)
        out << QString::fromStdString(words[static_cast<std::size_t>(i)]);
    return out.join(' ');
}

// One keystroke into the text box, as a student types: "a" after the last token (a new token), then Backspace.
void typeInto(QLineEdit* edit, bool add)
{
    edit->setFocus();
    edit->end(false);
    QKeyEvent press(QEvent::KeyPress, add ? Qt::Key_A : Qt::Key_Backspace, Qt::NoModifier, add ? "a" : QString());
    QCoreApplication::sendEvent(edit, &press);
}

// Runs the event loop as the app's exec() would, until `done` or the deadline.
bool serveUntil(const std::function<bool()>& done, double timeoutMs, const std::function<void()>& onIdle = {})
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        // Blocks until an event comes (the 1 ms ticker guarantees one), so the GUI thread does not spin
        // and steal a core from the worker; the timed overload would drop WaitForMoreEvents and spin.
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        if (onIdle)
            onIdle();
    }
    return true;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// One case: set it up, let it settle, then `edits` timed clicks (after one untimed warm-up click).
std::vector<EditTiming> runCase(ProbeApplication& app, Session& session, MainWindow& window, const Case& c, int edits)
{
    session.document()->applyPreset(*findPreset(QString::fromLatin1(c.preset)));
    if (c.call)
        session.document()->setCallText(QString::fromLatin1(c.call));
    if (c.gptHeads > 0) {
        session.trace()->setInputText(storyPrefix(c.tokens));
        session.trace()->useTrainedModel(c.gptHeads, 1);
    } else if (c.tokens) {
        session.document()->setInputShape(1, c.tokens);
    }
    session.view()->setTab(ViewMode::Heatmaps);
    if (!serveUntil([&] { return session.trace()->trace() && !session.trace()->busy(); }, 300000))
        qFatal("case %s: the first trace never arrived", c.id);
    serveUntil([] { return false; }, 300); // the first picture, layout and show events settle
    auto* bias = window.findChild<QCheckBox*>(QStringLiteral("qkv_bias"));
    if (!bias || !bias->isEnabled() || session.trace()->hasErrors())
        qFatal("case %s: no usable qkv_bias check box", c.id);
    auto* text = window.findChild<QLineEdit*>(QStringLiteral("text-input-text"));
    if (c.gptHeads > 0 && (!text || !text->isVisible()))
        qFatal("case %s: no text box", c.id);
    HeatmapsView* view = window.heatmapsView();
    HeatmapWidget* heatmap = view->selectedHeatmap();
    // Painted means the selected head and all the small multiples hold the new trace when it paints.
    app.watch(heatmap, [&session, view, heatmap] {
        bool current = heatmap->heatmap().slice().trace == session.trace()->trace();
        for (const HeatmapWidget* w : view->smallMultiples())
            current = current && w->heatmap().slice().trace == session.trace()->trace();
        return current;
    });

    std::vector<EditTiming> out;
    for (int i = 0; i <= edits; ++i) {
        app.arm();
        if (c.gptHeads > 0)
            typeInto(text, i % 2 == 0); // textEdited → Session::setInputText
        else
            bias->click(); // toggled → Session::setSlot(Slot::qkv_bias), as a mouse click does
        app.handlersReturned();
        // Offscreen windows normally repaint on their own; if none came 2 s after the trace, force
        // one and say so rather than wait for ever or report a paint that never happened.
        const bool ok =
            serveUntil([&] { return app.done(); }, 600000,
                       [&] {
                           if (app.traceSeen() && !app.done() && app.sinceArmMs() - app.timing().traceMs > 2000) {
                               app.forcedPaint();
                               heatmap->repaint();
                           }
                       });
        if (!ok)
            qFatal("case %s: edit %d never painted", c.id, i);
        if (i > 0) // the first click warms caches, the buffer pool and the undo stack
            out.push_back(app.timing());
        serveUntil([&] { return !session.trace()->busy(); }, 600000);
    }
    return out;
}

void printRow(const Case& c, const std::vector<EditTiming>& ts)
{
    std::vector<double> total, handlers, forward, paint, guiCpu, processCpu;
    double worst = 0, stall = 0, computeStall = 0, cpuStall = 0;
    int forced = 0;
    for (const auto& t : ts) {
        total.push_back(t.doneMs);
        handlers.push_back(t.handlersMs);
        forward.push_back(t.traceMs);
        paint.push_back(t.doneMs - t.traceMs);
        guiCpu.push_back(t.guiCpuMs);
        processCpu.push_back(t.processCpuMs);
        worst = std::max(worst, t.doneMs);
        stall = std::max(stall, t.stallMs);
        cpuStall = std::max(cpuStall, t.cpuStallMs);
        computeStall = std::max(computeStall, t.computeStallMs);
        forced += t.forced;
    }
    std::printf("| %s | %zu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", c.title,
                ts.size(), median(total), worst, median(handlers), median(forward), median(paint), computeStall, stall,
                cpuStall, median(guiCpu), median(processCpu),
                forced ? qPrintable(QStringLiteral("forced %1×").arg(forced)) : "on its own");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    ProbeApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // the window's remembered state is not the user's
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOptions(
        {{"edits", "Timed edits per case (after one warm-up).", "N", "20"},
         {"threads", "Engine threads (default: all cores but one, as the app uses).", "N"},
         {"cases", "Comma-separated case ids: book, book-v2, gpt2-16, gpt2-128, gpt2-1024, text-h4.", "IDS"},
         {"while-training", "Train the trade-offs tab's default induction sweep (every head count, 2 seeds) "
                            "the whole time, as a student who edits while a sweep runs."},
         {"smoke", "One edit of the book case; exit 1 unless the heatmap painted (ctest)."}});
    parser.process(app);
    const bool smoke = parser.isSet("smoke");
    const int edits = smoke ? 1 : std::max(1, parser.value("edits").toInt());
    const int threads =
        parser.isSet("threads") ? parser.value("threads").toInt() : std::max(1, QThread::idealThreadCount() - 1);
    set_engine_threads(std::max(1, threads));
    const QStringList wanted = smoke ? QStringList{"book"} : parser.value("cases").split(',', Qt::SkipEmptyParts);

    Session session;
    // Connected before the window's own handlers, so the arrival time excludes the heatmap rebuild.
    attnlab::ui::followParts(session.parts(), &app, [&](ChangeFlags f) {
        if (f & ChangeFlag::Trace)
            app.traceArrived();
    });
    MainWindow window(&session);
    QCommandLineParser shellParser; // the menus, undo history and the rest of the real app's shell
    addShellOptions(shellParser);
    addWeightsOptions(shellParser);
    addCompareOptions(shellParser);
    shellParser.addOption({"screenshot", "(gui_main's; the shell asks whether it is set)", "FILE"});
    shellParser.parse({QStringLiteral("attention-lab")});
    AppShell shell(&window, &session, shellParser);
    window.resize(1600, 1000);
    window.show();

    // The sweep's runs take every core at a lower priority than the GUI thread (sweep_job.h); the edits'
    // forwards compete with them. Started before the first case, stopped at the end.
    const bool training = parser.isSet("while-training");
    if (training) {
        SweepSettings sweep = sweepDefaults("induction");
        sweep.steps = 1000000; // outlasts every case
        if (!session.feature<TradeoffsState>()->sweep()->start(sweep))
            qFatal("the sweep did not start: %s", qPrintable(session.feature<TradeoffsState>()->sweep()->error()));
    }
    std::printf("edit → trace computed → heatmap painted into the backing store; platform %s, %d engine thread(s), "
                "%d edit(s) per case%s\n\n",
                qPrintable(QGuiApplication::platformName()), threads, edits,
                training ? ", while the induction sweep trains on every core" : "");
    std::printf(
        "| case | edits | edit → painted, median ms | max ms | edit handlers, median ms | "
        "edit → trace, median ms | trace → painted, median ms | longest GUI stall while computing, ms | "
        "longest GUI stall, ms | longest GUI stall in GUI-thread CPU, ms | GUI thread CPU per edit, median ms | "
        "process CPU per edit, median ms | paint |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    bool allPainted = true;
    for (const Case& c : kCases) {
        if (!wanted.isEmpty() && !wanted.contains(QString::fromLatin1(c.id)))
            continue;
        const auto ts = runCase(app, session, window, c, edits);
        printRow(c, ts);
        for (const auto& t : ts)
            allPainted = allPainted && t.doneMs >= 0;
    }
    if (training) {
        if (!session.feature<TradeoffsState>()->sweep()->busy())
            qFatal("the sweep stopped before the edits ended: %s",
                   qPrintable(session.feature<TradeoffsState>()->sweep()->error()));
        session.feature<TradeoffsState>()->sweep()->cancel();
    }
    return allPainted ? 0 : 1;
}
