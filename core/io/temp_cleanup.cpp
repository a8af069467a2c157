#include "io/temp_cleanup.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include <unistd.h>

namespace attnlab::detail {

namespace {

// A fixed table, because the signal handler may neither allocate nor take a lock: it reads only
// slots whose state says their path is complete.
constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;
enum SlotState : int { Free = 0, Filling = 1, Armed = 2 };

struct Slot {
    std::atomic<int> state{Free};
    char path[kPathBytes];
};

Slot g_slots[kSlots];
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
std::mutex g_install_mutex;
static_assert(std::atomic<int>::is_always_lock_free, "the handler reads the slots' states");

extern "C" void remove_temp_files_then_die(int sig)
{
    const int saved = errno;
    for (Slot& slot : g_slots)
        if (slot.state.load(std::memory_order_acquire) == Armed)
            ::unlink(slot.path);
    // The handler was only installed over the default action, so restoring it and raising the signal
    // again ends the process exactly as it would have ended without us (same status for the parent).
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(sig, &fallback, nullptr);
    ::raise(sig);
    errno = saved;
}

// Checked at every watch rather than once: a signal the program ignores (nohup) or handles itself is
// left alone, and one it has since set back to its default is taken again.
void install_handlers()
{
    const std::lock_guard lock(g_install_mutex);
    for (const int sig : kSignals) {
        struct sigaction current {};
        if (::sigaction(sig, nullptr, &current) != 0)
            continue;
        if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL)
            continue;
        struct sigaction ours {};
        ours.sa_handler = remove_temp_files_then_die;
        sigemptyset(&ours.sa_mask);
        for (const int other : kSignals)
            sigaddset(&ours.sa_mask, other); // one cleanup at a time, even if a second signal follows
        ::sigaction(sig, &ours, nullptr);
    }
}

} // namespace

int watch_temp_file(const std::string& path)
{
    if (path.empty() || path.size() >= kPathBytes)
        return -1;
    install_handlers();
    for (int i = 0; i < kSlots; ++i) {
        int expected = Free;
        if (!g_slots[i].state.compare_exchange_strong(expected, Filling, std::memory_order_acq_rel))
            continue;
        std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
        g_slots[i].state.store(Armed, std::memory_order_release);
        return i;
    }
    return -1;
}

void unwatch_temp_file(int handle)
{
    if (handle >= 0 && handle < kSlots)
        g_slots[handle].state.store(Free, std::memory_order_release);
}

} // namespace attnlab::detail
