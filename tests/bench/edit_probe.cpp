#include "edit_probe.h"

#include <QEvent>
#include <QWidget>

#include <algorithm>
#include <ctime>

namespace attnlab::bench {

namespace {

qint64 cpuNs(clockid_t clock)
{
    timespec t{};
    clock_gettime(clock, &t);
    return static_cast<qint64>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

} // namespace

ProbeApplication::ProbeApplication(int& argc, char** argv) : QApplication(argc, argv)
{
    clock_.start();
    // PreciseTimer: the default coarse timer may slip by 5 % of its interval, which would blur a
    // millisecond-scale stall measurement; 1 ms is the finest a QTimer offers.
    ticker_.setTimerType(Qt::PreciseTimer);
    ticker_.setInterval(1);
    QObject::connect(&ticker_, &QTimer::timeout, this, [this] { tick(); });
    ticker_.start();
}

void ProbeApplication::arm()
{
    armed_ = true;
    forced_ = false;
    armedAt_ = clock_.nsecsElapsed();
    guiCpuAt_ = lastTickCpu_ = cpuNs(CLOCK_THREAD_CPUTIME_ID);
    processCpuAt_ = cpuNs(CLOCK_PROCESS_CPUTIME_ID);
    lastTick_ = armedAt_;
    maxGap_ = maxComputeGap_ = maxCpuGap_ = 0;
    handlersAt_ = traceAt_ = paintAt_ = doneAt_ = -1;
}

void ProbeApplication::traceArrived()
{
    if (!armed_ || traceAt_ >= 0)
        return;
    closeGap(clock_.nsecsElapsed()); // the computing window ends here; the heatmap rebuild comes next
    traceAt_ = lastTick_;
}

void ProbeApplication::tick()
{
    if (armed_ && doneAt_ < 0)
        closeGap(clock_.nsecsElapsed());
}

void ProbeApplication::closeGap(qint64 now)
{
    maxGap_ = std::max(maxGap_, now - lastTick_);
    // The same gap in the GUI thread's own CPU time: what the gap would be on an idle machine, since
    // time the scheduler gave to other processes (or to the worker) is left out.
    const qint64 cpu = cpuNs(CLOCK_THREAD_CPUTIME_ID);
    maxCpuGap_ = std::max(maxCpuGap_, cpu - lastTickCpu_);
    lastTickCpu_ = cpu;
    // While the worker computes, only the GUI thread's own waits count: from the handlers' return on.
    if (handlersAt_ >= 0 && traceAt_ < 0)
        maxComputeGap_ = std::max(maxComputeGap_, now - std::max(lastTick_, handlersAt_));
    lastTick_ = now;
}

bool ProbeApplication::notify(QObject* receiver, QEvent* event)
{
    // Paints before the trace arrived (the busy bar, the status line) show the old picture: not counted.
    if (armed_ && receiver == watched_ && event->type() == QEvent::Paint && traceAt_ >= 0 && paintAt_ < 0 &&
        (!current_ || current_()))
        paintAt_ = clock_.nsecsElapsed();
    ++depth_;
    const bool handled = QApplication::notify(receiver, event);
    --depth_;
    // Outermost dispatch returned after the paint: the whole repaint pass (every dirty widget, then the
    // flush of the backing store) is over, so the new picture is what the window now shows.
    if (depth_ == 0 && paintAt_ >= 0 && doneAt_ < 0) {
        closeGap(clock_.nsecsElapsed()); // a stall still open at the end counts too
        doneAt_ = lastTick_;
        guiCpuDone_ = cpuNs(CLOCK_THREAD_CPUTIME_ID);
        processCpuDone_ = cpuNs(CLOCK_PROCESS_CPUTIME_ID);
    }
    return handled;
}

EditTiming ProbeApplication::timing() const
{
    EditTiming t;
    t.handlersMs = handlersAt_ >= 0 ? ms(handlersAt_) : -1;
    t.traceMs = traceAt_ >= 0 ? ms(traceAt_) : -1;
    t.paintMs = paintAt_ >= 0 ? ms(paintAt_) : -1;
    t.doneMs = doneAt_ >= 0 ? ms(doneAt_) : -1;
    t.stallMs = static_cast<double>(maxGap_) / 1e6;
    t.cpuStallMs = static_cast<double>(maxCpuGap_) / 1e6;
    t.computeStallMs = static_cast<double>(maxComputeGap_) / 1e6;
    t.forced = forced_;
    t.guiCpuMs = static_cast<double>(guiCpuDone_ - guiCpuAt_) / 1e6;
    t.processCpuMs = static_cast<double>(processCpuDone_ - processCpuAt_) / 1e6;
    return t;
}

} // namespace attnlab::bench
