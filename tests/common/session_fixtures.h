#pragma once
// What the UI tests start from and wait for: a session whose trace is in and whose jobs have nothing
// left to do (or its settled() signal); the main window over a new session with a preset computed; a diagnostic by its
// code.
#include "model/presets.h"
#include "common/session_parts.h"
#include "shell/main_window.h"

#include <QSize>
#include <QtTest>

#include <memory>
#include <string>

namespace testing {

inline bool idle(const attnlab::ui::Session& s)
{
    return s.trace()->trace() && !s.computing();
}

// Waits for the Session's settled(): everything the state asks for is computed and the views took it in.
inline bool waitUntilSettled(attnlab::ui::Session& s, int timeoutMs = 30000)
{
    bool settled = false;
    QObject context;
    s.whenSettled(&context, [&settled] { settled = true; });
    return QTest::qWaitFor([&settled] { return settled; }, timeoutMs);
}

inline bool hasDiagnostic(const attnlab::ui::Session& s, attnlab::DiagnosticCode code)
{
    for (const auto& d : s.trace()->diagnostics())
        if (d.code == code)
            return true;
    return false;
}

// A new session and its window, shown (at `size` when given) with `preset` computed. QVERIFY inside:
// call it from a test function or init(), which return at the first failure.
inline void openWindow(std::unique_ptr<attnlab::ui::Session>& session, std::unique_ptr<attnlab::ui::MainWindow>& window,
                       const QString& preset, QSize size = {})
{
    session = std::make_unique<attnlab::ui::Session>();
    window = std::make_unique<attnlab::ui::MainWindow>(session.get());
    if (size.isValid())
        window->resize(size);
    const attnlab::ui::Preset* p = attnlab::ui::findPreset(preset);
    QVERIFY2(p, qPrintable(preset));
    session->document()->applyPreset(*p);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QTRY_VERIFY_WITH_TIMEOUT(idle(*session), 30000);
}

} // namespace testing
