// What a student waits for on the overview tab with a whole GPT opened: an edit of the text, then GPT-2's
// forward through every layer on the worker, every head summarised (thumbnail and measures), the grid
// rebuilt and the tab painted. Timed from the edit until view.grab() has painted the tab with the new
// heads, alternating two texts of the same length so every edit recomputes. Median and fastest of the
// repeats, wall and process CPU time; tests/bench/overview_speed.sh sets it beside PyTorch's forward.
//
//   QT_QPA_PLATFORM=offscreen bench_overview CHECKPOINT [--tokens 64] [--repeat 7] [--threads N] [--smoke]
#include "gpt/gpt2_checkpoint.h"
#include "model/model_job.h"
#include "features/session.h"
#include "features/overview/head_grid_widget.h"
#include "features/overview/overview_view.h"
#include "tensor/error.h"
#include "tensor/threads.h"
#include "features/overview/overview_state.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPixmap>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

double processCpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// Serves the event loop, sleeping until an event comes (a 2 ms ticker guarantees one), until `done`: a
// loop that polls would take CPU from the forward's threads on a two-core machine.
bool serveUntil(const std::function<bool()>& done, qint64 timeoutMs)
{
    QTimer ticker;
    ticker.start(2);
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

// `tokens` GPT-2 tokens: "a" then " a" (id 257) or " b" (id 275) again and again.
QString textOf(int tokens, QChar letter)
{
    QString text(letter);
    for (int i = 1; i < tokens; ++i)
        text += QLatin1Char(' ') + letter;
    return text;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_overview CHECKPOINT [--tokens T] [--repeat R] [--threads N] [--smoke]\n");
        return 2;
    }
    int tokens = 64, repeat = 7;
    for (int i = 2; i < argc; ++i) {
        const bool value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--tokens") && value)
            tokens = std::max(2, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--repeat") && value)
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--threads") && value)
            set_engine_threads(std::max(1, std::atoi(argv[++i])));
        else if (!std::strcmp(argv[i], "--smoke"))
            repeat = 1, tokens = std::min(tokens, 8);
        else {
            std::fprintf(stderr, "bench_overview: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    Session session;
    OverviewView view(session.feature<OverviewState>());
    view.resize(1280, 800);
    view.show();
    session.view()->setTab(ViewMode::Overview);
    try {
        const Gpt2Plan plan = plan_gpt2_checkpoint(argv[1]);
        tokens = static_cast<int>(std::min<std::int64_t>(tokens, plan.settings.context_length));
        session.trace()->setInputText(textOf(tokens, QLatin1Char('a')));
        session.trace()->openModel(plan);
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_overview: %s\n", e.what());
        return 1;
    }
    const auto settled = [&] {
        return session.trace()->usesOpenedModel() && session.feature<OverviewState>()->layerAttention() &&
               !session.trace()->busy();
    };
    if (!serveUntil(settled, 600000) || !session.trace()->modelProblem().isEmpty()) {
        std::fprintf(stderr, "bench_overview: the model never opened: %s\n",
                     qPrintable(session.trace()->modelProblem()));
        return 1;
    }
    if (session.trace()->textTokens().ids.size() != static_cast<std::size_t>(tokens)) {
        std::fprintf(stderr, "bench_overview: the text is %zu tokens, not %d\n",
                     session.trace()->textTokens().ids.size(), tokens);
        return 1;
    }
    std::vector<double> wall, cpu;
    for (int i = 0; i <= repeat; ++i) { // the first edit warms the caches and is not counted
        const auto before = session.feature<OverviewState>()->layerAttention();
        QElapsedTimer clock;
        clock.start();
        const double cpu0 = processCpuMs();
        session.trace()->setInputText(textOf(tokens, i % 2 == 0 ? QLatin1Char('b') : QLatin1Char('a')));
        if (!serveUntil(
                [&] {
                    return session.feature<OverviewState>()->layerAttention() != before && !session.trace()->busy();
                },
                600000)) {
            std::fprintf(stderr, "bench_overview: edit %d never finished\n", i);
            return 1;
        }
        const QPixmap shot = view.grab(); // paints the tab, every thumbnail, now
        const double ms = clock.nsecsElapsed() / 1e6;
        const auto& grid = view.grid()->painter().cells();
        if (shot.isNull() || grid.size() != session.feature<OverviewState>()->layerAttention()->grid.size() *
                                                session.feature<OverviewState>()->layerAttention()->grid[0].size()) {
            std::fprintf(stderr, "bench_overview: the grid does not hold every head\n");
            return 1;
        }
        if (i > 0) {
            wall.push_back(ms);
            cpu.push_back(processCpuMs() - cpu0);
        }
    }
    const auto a = session.feature<OverviewState>()->layerAttention();
    std::printf("%s: %zu layers x %zu heads, %d tokens, %d engine threads\n", a->model.c_str(), a->grid.size(),
                a->grid[0].size(), tokens, engine_threads());
    std::printf("app %.1f %.1f cpu %.1f\n", median(wall), *std::min_element(wall.begin(), wall.end()), median(cpu));
    return 0;
}
