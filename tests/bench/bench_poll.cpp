// Ask the class under a class's traffic: what an answer waits for until it is counted, and what the window's
// frames cost meanwhile, each against an idle run. Phones (client threads on loopback) poll the question every
// two seconds each and answer it; the GUI thread steps the stages of GPT-2 small and repaints the window.
//   idle window, answers:       answer round trips (the 200 comes after the tally and the log have it)
//   stepping window, answers:   the same while the window steps a stage and repaints every 50 ms
//   stepping window, no class:  each step's repaint, and the longest the event loop went unserved
//   stepping window, the class: the same under the class's traffic
// Timings are not tests: ctest runs only `--smoke` (a few answers, a few steps, each counted).
//
//   QT_QPA_PLATFORM=offscreen build/tests/bench/bench_poll [--phones 200] [--seconds 10] [--smoke]
#include "common/raw_http.h"
#include "common/session_fixtures.h"
#include "features/poll/poll_state.h"
#include "model/presets.h"
#include "poll/poll_question.h"
#include "shell/main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

struct Stats {
    std::vector<double> ms;
    double at(double q) const
    {
        if (ms.empty())
            return 0;
        std::vector<double> s = ms;
        std::sort(s.begin(), s.end());
        return s[std::min(s.size() - 1, static_cast<std::size_t>(q * static_cast<double>(s.size())))];
    }
};

// `phones` phones on 8 threads: each polls every 2 s and answers the open question (another choice each time).
struct Class {
    std::atomic<bool> stop{false};
    std::mutex lock;
    Stats answers;
    std::atomic<int> counted{0}, refused{0};
    std::vector<std::thread> threads;

    void start(quint16 port, const QByteArray& token, int phones)
    {
        for (int t = 0; t < 8; ++t)
            threads.emplace_back([this, port, token, phones, t] {
                testing::KeptConnection connection{port};
                int turn = 0;
                while (!stop) {
                    QElapsedTimer pass;
                    pass.start();
                    for (int d = t; d < phones && !stop; d += 8) {
                        const auto q = connection.ask(testing::request("GET", "/api/question?t=" + token));
                        const QJsonObject question =
                            QJsonDocument::fromJson(q.body).object().value("question").toObject();
                        const QByteArray body =
                            QJsonDocument(
                                QJsonObject{{"question", question.value("id")},
                                            {"round", question.value("round")},
                                            {"device", QStringLiteral("d-phone-%1").arg(d, 4, 10, QLatin1Char('0'))},
                                            {"answers", QJsonObject{{"choice", QString::number((d + turn) % 3)}}}})
                                .toJson(QJsonDocument::Compact);
                        QElapsedTimer took;
                        took.start();
                        const auto r = connection.ask(testing::request("POST", "/api/answer?t=" + token, body));
                        const double ms = static_cast<double>(took.nsecsElapsed()) / 1e6;
                        if (r.status == 200) {
                            ++counted;
                            const std::lock_guard hold(lock);
                            answers.ms.push_back(ms);
                        } else if (++refused <= 3) {
                            std::fprintf(stderr, "bench_poll: refused (%d) %s\n", r.status, r.body.constData());
                        }
                    }
                    ++turn;
                    // Every phone once per two seconds.
                    std::this_thread::sleep_for(std::chrono::milliseconds(std::max<qint64>(0, 2000 - pass.elapsed())));
                }
            });
    }
    void finish()
    {
        stop = true;
        for (std::thread& t : threads)
            t.join();
        threads.clear();
        stop = false;
    }
};

// Steps a stage and repaints the window every 50 ms for `seconds`: each repaint's time, and the longest the
// event loop went without serving a 1 ms timer.
std::pair<Stats, double> stepFor(Session& session, MainWindow& window, double seconds)
{
    Stats frames;
    double longestGap = 0;
    QElapsedTimer clock, sinceTick;
    clock.start();
    sinceTick.start();
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        longestGap = std::max(longestGap, static_cast<double>(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
    });
    tick.start(1);
    int step = 0;
    while (clock.elapsed() < seconds * 1000) {
        QElapsedTimer frame;
        frame.start();
        if (++step % 12 == 0)
            session.view()->setStageByName(QStringLiteral("x"));
        else
            session.study()->nextStage();
        window.repaint();
        frames.ms.push_back(static_cast<double>(frame.nsecsElapsed()) / 1e6);
        QElapsedTimer wait;
        wait.start();
        while (wait.elapsed() < 50)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return {frames, longestGap};
}

void print(const char* what, const Stats& s, const Stats& idle)
{
    std::printf("%-34s n %6zu  median %7.2f ms  p95 %7.2f ms  (idle: median %.2f, p95 %.2f; ratio %.2f / %.2f)\n", what,
                s.ms.size(), s.at(0.5), s.at(0.95), idle.at(0.5), idle.at(0.95),
                idle.at(0.5) > 0 ? s.at(0.5) / idle.at(0.5) : 0, idle.at(0.95) > 0 ? s.at(0.95) / idle.at(0.95) : 0);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const bool smoke = args.contains(QStringLiteral("--smoke"));
    const auto option = [&](const char* name, double fallback) {
        const int i = static_cast<int>(args.indexOf(QLatin1String(name)));
        return i >= 0 && i + 1 < args.size() ? args[i + 1].toDouble() : fallback;
    };
    const int phones = static_cast<int>(option("--phones", smoke ? 8 : 200));
    const double seconds = option("--seconds", smoke ? 1.5 : 10);

    Session session;
    session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    MainWindow window(&session);
    window.resize(1280, 720);
    window.show();
    if (!testing::waitUntilSettled(session, 60000))
        return std::fprintf(stderr, "bench_poll: the forward pass did not finish.\n"), 1;
    QTemporaryDir dir;
    PollState poll;
    PollOptions options;
    options.logPath = dir.filePath(QStringLiteral("class.jsonl"));
    QString error;
    if (!poll.start(options, &error))
        return std::fprintf(stderr, "bench_poll: %s\n", qPrintable(error)), 1;
    poll.ask(poll::from_choices("Which?", {"a", "b", "c"}, 0));
    const quint16 port = QUrl(poll.joinAddress()).port();
    const QByteArray token = poll.joinAddress().section(QStringLiteral("?t="), 1).toLatin1();

    // The class answers while the window is idle, then while it steps; then the window steps alone.
    Class idleClass;
    idleClass.start(port, token, phones);
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < seconds * 1000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    idleClass.finish();
    Class busyClass;
    busyClass.start(port, token, phones);
    const auto [busyFrames, busyGap] = stepFor(session, window, seconds);
    busyClass.finish();
    const auto [idleFrames, idleGap] = stepFor(session, window, seconds);

    std::printf("bench_poll: %d phones, %.1f s per run, GPT-2 small at 16 tokens, 1280x720 offscreen\n", phones,
                seconds);
    print("answer round trip, window stepping", busyClass.answers, idleClass.answers);
    print("repaint after a step, class on", busyFrames, idleFrames);
    std::printf("%-34s %.1f ms with the class, %.1f ms without (ratio %.2f)\n", "longest event-loop gap", busyGap,
                idleGap, idleGap > 0 ? busyGap / idleGap : 0);
    const int counted = idleClass.counted + busyClass.counted, refused = idleClass.refused + busyClass.refused;
    std::printf("answers counted %d, refused %d\n", counted, refused);
    // The smoke's check: answers are counted and the window stepped (a refusal is printed above, not judged here:
    // test_ui_poll judges what is refused and why).
    if (counted == 0 || busyFrames.ms.empty())
        return std::fprintf(stderr, "bench_poll: no answer was counted, or the window did not step.\n"), 1;
    return 0;
}
