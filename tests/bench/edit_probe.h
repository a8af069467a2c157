#pragma once
// The stopwatch of bench_edit_to_paint. It is the QApplication itself because only notify() sees
// both ends of what a student waits for: the paint event of the watched heatmap, and the moment the
// event that caused it (the window's repaint into its backing store) has been fully dispatched.
// A 1 ms timer on the GUI thread measures the longest the event loop went unserved meanwhile: the
// forward runs on a worker thread, so that gap is what "the window did not freeze" means in numbers.
#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <functional>

class QWidget;

namespace attnlab::bench {

// One edit, in milliseconds from the edit.
struct EditTiming {
    double handlersMs = -1;    // the edit's synchronous handlers returned (diagnostics, panels, undo)
    double traceMs = -1;       // the new trace reached the GUI thread (Session::changed with Trace)
    double paintMs = -1;       // the watched widget received its first paint event after that
    double doneMs = -1;        // the event that painted it returned: the new picture is in the backing store
    double stallMs = 0;        // longest gap between 1 ms ticks of the GUI event loop, edit to done
    double cpuStallMs = 0;     // the most GUI-thread CPU time spent within one such gap (load-proof)
    double computeStallMs = 0; // the same while the worker computes (handlers returned → trace)
    bool forced = false;       // no paint came on its own, so the bench called repaint() (reported)
    // CPU time, edit to done: a shared machine stretches wall time, but hardly the work itself.
    double guiCpuMs = 0;     // the GUI thread's
    double processCpuMs = 0; // all threads' (the worker, the engine's and BLAS's threads, the GUI thread)
};

class ProbeApplication : public QApplication {
public:
    ProbeApplication(int& argc, char** argv);

    // `current` says whether the watched widget now shows the edit's trace: a paint of the old picture
    // (big heatmaps keep it while the new ones render on a worker) does not count as painted.
    void watch(const QWidget* widget, std::function<bool()> current = {})
    {
        watched_ = widget;
        current_ = std::move(current);
    }
    void arm(); // the edit starts now
    void handlersReturned() { handlersAt_ = clock_.nsecsElapsed(); }
    void traceArrived(); // the session delivered the edit's trace
    void forcedPaint() { forced_ = true; }
    bool traceSeen() const { return traceAt_ >= 0; }
    bool done() const { return doneAt_ >= 0; }
    double sinceArmMs() const { return ms(clock_.nsecsElapsed()); }
    EditTiming timing() const;

protected:
    bool notify(QObject* receiver, QEvent* event) override;

private:
    double ms(qint64 ns) const { return static_cast<double>(ns - armedAt_) / 1e6; }
    void tick();
    void closeGap(qint64 now); // a gap between ticks ends at `now`

    const QWidget* watched_ = nullptr;
    std::function<bool()> current_;
    QElapsedTimer clock_;
    QTimer ticker_;
    int depth_ = 0;
    bool armed_ = false;
    bool forced_ = false;
    qint64 armedAt_ = 0;
    qint64 handlersAt_ = -1;
    qint64 traceAt_ = -1;
    qint64 paintAt_ = -1;
    qint64 doneAt_ = -1;
    qint64 lastTick_ = 0;
    qint64 maxGap_ = 0;
    qint64 lastTickCpu_ = 0; // the GUI thread's CPU time at the last tick
    qint64 maxCpuGap_ = 0;
    qint64 maxComputeGap_ = 0;
    qint64 guiCpuAt_ = 0, processCpuAt_ = 0;     // at arm()
    qint64 guiCpuDone_ = 0, processCpuDone_ = 0; // at done
};

} // namespace attnlab::bench
