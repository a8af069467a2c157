#pragma once
// The window and its shell as the app builds them (menus, lessons dock, presenter, exports), on GPT-2 small, for the
// tests that drive the app as a whole without starting a process: --screenshot is given so that no remembered
// geometry or session is read, and nothing is remembered after.
#include "common/session_fixtures.h"
#include "features/session.h"
#include "model/document_model.h"
#include "model/presets.h"
#include "shell/app_shell.h"
#include "shell/main_window.h"

#include <QCommandLineParser>
#include <QScreen>
#include <QtTest>

#include <memory>

namespace testing {

struct ShellApp {
    attnlab::ui::Session session;
    std::unique_ptr<attnlab::ui::MainWindow> window;
    std::unique_ptr<attnlab::ui::AppShell> shell;

    // `screen`, when given, is where the window opens.
    bool open(QScreen* screen = nullptr)
    {
        using namespace attnlab::ui;
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        window = std::make_unique<MainWindow>(&session);
        if (screen)
            window->setScreen(screen);
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
        if (!parser.parse({"attention-lab", "--screenshot", "x.png"}))
            return false;
        shell = std::make_unique<AppShell>(window.get(), &session, parser);
        window->show();
        return QTest::qWaitForWindowExposed(window.get()) && QTest::qWaitFor([this] { return idle(session); });
    }
};

} // namespace testing
