#pragma once
// Runs a program as its own process and measures what the process cost: its exit, its output, its wall time
// and its peak resident memory (wait4's ru_maxrss of that one child, so earlier children never mix in).
// For the tests that hold a command's peak memory to the budget it was given, and the benchmark-style
// checks that doubling an input at most roughly doubles the time (a ratio of two runs on the same machine,
// never an absolute limit). Linux carries the spawning process's high-water mark across exec, so a peak
// below this test's own resident size reads as that size: hold peaks to budgets above it (tens of MB).
#include <QByteArray>
#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <QTemporaryFile>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

struct Measured {
    int code = -1;  // exit code; -1 when a signal ended the process
    int signal = 0; // the signal that ended it, or 0
    QString out, err;
    double seconds = 0;     // wall time
    double cpu_seconds = 0; // user plus system time of the child: what another process's load changes least
    long long peak_rss_bytes = 0;
};

// `env` entries ("NAME=value") are added to (and override) the test's environment. Output goes through
// temporary files so a process that writes a lot never blocks on a full pipe.
// `argStore` is the whole argv, program first, as bytes: an argument need not be UTF-8 (a file name is any
// bytes but '/' and NUL), which a QStringList cannot carry.
inline Measured measure_process_bytes(std::vector<std::string> argStore, const QStringList& env = {})
{
    Measured m;
    QTemporaryFile out, err;
    if (!out.open() || !err.open() || argStore.empty())
        return m;
    std::vector<char*> argv;
    for (auto& a : argStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<std::string> envStore;
    for (char** e = environ; *e; ++e) {
        const std::string entry(*e);
        const auto name = entry.substr(0, entry.find('=') + 1);
        const bool overridden =
            std::any_of(env.begin(), env.end(), [&](const QString& x) { return x.toStdString().rfind(name, 0) == 0; });
        if (!overridden)
            envStore.push_back(entry);
    }
    for (const QString& e : env)
        envStore.push_back(e.toStdString());
    std::vector<char*> envp;
    for (auto& e : envStore)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out.handle(), 1);
    posix_spawn_file_actions_adddup2(&actions, err.handle(), 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    QElapsedTimer clock;
    clock.start();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return m;
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0) {
    }
    m.seconds = clock.nsecsElapsed() / 1e9;
    m.peak_rss_bytes = static_cast<long long>(usage.ru_maxrss) * 1024; // Linux reports KiB
    m.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    if (WIFEXITED(status))
        m.code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        m.signal = WTERMSIG(status);
    out.seek(0);
    err.seek(0);
    m.out = QString::fromUtf8(out.readAll());
    m.err = QString::fromUtf8(err.readAll());
    return m;
}

inline Measured measure_process(const QString& program, const QStringList& args, const QStringList& env = {})
{
    std::vector<std::string> argv{program.toStdString()};
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    return measure_process_bytes(std::move(argv), env);
}

struct DoublingTimes {
    double small = 0, large = 0; // least whole-process CPU seconds of each, over every run made
    double ratio() const { return small > 0 ? large / small : 1e300; }
};

// How a command's time grows when its input doubles. CPU time, not wall time: a test running beside this
// one on two cores stretches the wall clock of whichever run it overlaps (a 2.57x wall ratio was seen for
// a linear reader), and hardly the CPU time. Runs on the small and the large input alternate, and the
// least of each is kept. Rounds of three pairs go on (at most `rounds`) until the ratio is within
// `limit`: noise only ever slows a run, so a linear command gets there, and a quadratic one (4x) never
// does. The default 3x leaves room for the caches' share of a doubled input.
inline DoublingTimes doubling_times(const QString& program, const QStringList& small, const QStringList& large,
                                    double limit = 3.0, int rounds = 4)
{
    DoublingTimes t{1e300, 1e300};
    for (int round = 0; round < rounds; ++round) {
        for (int i = 0; i < 3; ++i) {
            t.small = std::min(t.small, measure_process(program, small).cpu_seconds);
            t.large = std::min(t.large, measure_process(program, large).cpu_seconds);
        }
        if (t.ratio() <= limit)
            break;
    }
    return t;
}
