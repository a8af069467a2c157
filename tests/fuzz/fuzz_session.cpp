// libFuzzer harness for the session reader (File > Open, --open): any bytes are either refused with one
// sentence, or read into a state that writes out as a session which reads back to the same bytes -- no
// exception, crash, hang or sanitizer report on the way.
#include "features/session_state.h"
#include "model/session_file.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace attnlab::ui;

namespace {

[[noreturn]] void fail(const char* why, const QString& detail = {})
{
    std::fprintf(stderr, "fuzz_session: %s %s\n", why, qPrintable(detail.left(300)));
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QString error;
    std::optional<SessionState> state;
    try {
        state = parseSession(bytes, sessionFeatures(), &error);
    } catch (...) {
        fail("parseSession threw");
    }
    if (!state) {
        if (error.isEmpty() || error.size() > 600 || error.contains(QLatin1Char('\n')))
            fail("a refusal that is not one short sentence:", error);
        return 0;
    }
    const QByteArray written = serializeSession(*state, sessionFeatures());
    QString again;
    const auto reread = parseSession(written, sessionFeatures(), &again);
    if (!reread)
        fail("what it wrote does not read back:", again);
    if (serializeSession(*reread, sessionFeatures()) != written)
        fail("a session read back writes different bytes");
    return 0;
}
