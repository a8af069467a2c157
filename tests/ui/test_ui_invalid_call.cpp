// An invalid call opens: `attention-lab --call C` with a call that does not validate, or
// does not even parse, opens the window on what is wrong (exit 0, and --screenshot takes the
// picture); only a bad option or an unreadable file stops it starting (one sentence, exit 1). The
// window, given the call as gui_main gives it, shows it in the call line, the caret message under
// it when it does not parse, and the diagnostics with their fixes when it does.
#include "call/call_parser.h"
#include "lessons/contract_call.h"
#include "common/gui_runner.h"
#include "common/session_parts.h"
#include "shell/main_window.h"
#include "shell/call_line.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

void addCallRows()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<bool>("parses");
    QTest::addColumn<QString>("says"); // a word of the diagnostic or of the caret message
    QTest::newRow("d_out not divisible by num_heads")
        << "MultiHeadAttention(768, 770, 1024, 0.0, 12)" << true << "cannot be split evenly";
    QTest::newRow("context_length 0") << "MultiHeadAttention(768, 768, 0, 0.0, 12)" << true << "context_length";
    QTest::newRow("dropout 1.5") << "MultiHeadAttention(768, 768, 1024, 1.5, 12)" << true << "dropout";
    QTest::newRow("num_heads 0") << "MultiHeadAttention(768, 768, 1024, 0.0, 0)" << true << "num_heads";
    QTest::newRow("missing argument") << "MultiHeadAttention(768, 768, , 0.0, 12)" << false << "^";
    QTest::newRow("unclosed call") << "MultiHeadAttention(768, 768, 1024, 0.0, 12" << false << "^";
    QTest::newRow("unknown class") << "Attention(3, 2)" << false << "^";
    QTest::newRow("valid") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)" << true << "";
}

} // namespace

class TestUiInvalidCall : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theWindowShowsTheCallAndWhatIsWrong_data() { addCallRows(); }

    void theWindowShowsTheCallAndWhatIsWrong()
    {
        QFETCH(QString, call);
        QFETCH(bool, parses);
        QFETCH(QString, says);
        QCOMPARE(parse_call(call.toStdString()).ok(), parses); // the row is what it claims to be
        Session session;
        session.document()->setCallText(call); // what gui_main does with --call
        MainWindow window(&session);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        auto* line = window.findChild<CallLine*>(QStringLiteral("call-line"));
        QVERIFY(line);
        QCOMPARE(line->text(), call);
        auto* caret = window.findChild<QLabel*>(QStringLiteral("call-error"));
        QVERIFY(caret);
        QCOMPARE(caret->isVisible(), !parses);
        if (!parses) {
            // The message, the call, and a caret under the column the parser stopped at.
            const auto error = parse_call(call.toStdString()).error;
            const QStringList lines = caret->text().split(QLatin1Char('\n'));
            QCOMPARE(lines.size(), 3);
            QCOMPARE(lines[0], QString::fromStdString(session.document()->callError()->message));
            // Python's reading, unless a swap explains it better (swappedCallsSayTheSwapEverywhere).
            QCOMPARE(lines[0], QString::fromStdString(read_call(call.toStdString(), InputShape{1, 6}).error->message));
            QCOMPARE(lines[1], call);
            QCOMPARE(lines[2].indexOf(QLatin1Char('^')), static_cast<int>(error->column));
        }

        int fixes = 0;
        for (const auto& d : session.trace()->diagnostics())
            fixes += static_cast<int>(d.fixes.size()) + (d.call_fix.empty() ? 0 : 1);
        if (says.isEmpty()) {
            QVERIFY(!session.trace()->hasErrors());
            QVERIFY(window.findChild<QLabel*>(QStringLiteral("diagnostics-ok")));
            return;
        }
        QVERIFY(session.trace()->hasErrors());
        bool found = false;
        for (const auto& d : session.trace()->diagnostics()) {
            if (d.severity != Severity::Error)
                continue;
            const std::string name = "diagnostic-" + diagnostic_code_name(d.code);
            auto* card = window.findChild<QWidget*>(QString::fromStdString(name));
            QVERIFY2(card && card->isVisible(), name.c_str());
            found = found || QString::fromStdString(d.message).contains(says) || caret->text().contains(says);
        }
        QVERIFY2(found, qPrintable(says));
        int buttons = 0;
        for (auto* b : window.findChildren<QPushButton*>())
            buttons += b->objectName().startsWith(QLatin1String("fix-")) && b->isVisible();
        QCOMPARE(buttons, fixes);
        if (call.contains(QLatin1String("770"))) // the example of the issue: each fix is a button
            QVERIFY(window.findChild<QPushButton*>(QStringLiteral("fix-d_out-768")));
    }

    void swappedCallsSayTheSwapEverywhere_data()
    {
        QTest::addColumn<QString>("call");
        QTest::newRow("dropout and num_heads swapped") << "MultiHeadAttention(768, 768, 1024, 12, 0.0)";
        QTest::newRow("context_length and num_heads swapped") << "MultiHeadAttention(768, 768, 12, 0.0, 1024)";
    }

    // The call line, its caret message and the settings column's card say the contract's reading and
    // offer its call, as the contract tab does; one click makes the call valid.
    void swappedCallsSayTheSwapEverywhere()
    {
        QFETCH(QString, call);
        const QString meant = QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)");
        Session session;
        session.document()->setInputShape(1, 16);
        session.document()->setCallText(call);
        MainWindow window(&session);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const ContractReport contract = check_contract(call.toStdString(), ContractInput{std::nullopt, 16});
        QVERIFY(!contract.findings.empty());
        const QString reading = QString::fromStdString(contract.findings.front().message);
        QCOMPARE(QString::fromStdString(contract.findings.front().suggested_call), meant);

        QVERIFY(!session.trace()->diagnostics().empty());
        const Diagnostic& first = session.trace()->diagnostics().front();
        QCOMPARE(first.code, DiagnosticCode::SlotsSwapped);
        QCOMPARE(QString::fromStdString(first.message), reading);
        for (const auto& d : session.trace()->diagnostics())
            for (const char* wrong : {"write 0", "num_heads = 768", "context_length to at least 16"})
                QVERIFY2(d.message.find(wrong) == std::string::npos, d.message.c_str());
        auto* card = window.findChild<QWidget*>(QStringLiteral("diagnostic-slots-swapped"));
        QVERIFY(card && card->isVisible());
        auto* line = window.findChild<CallLine*>(QStringLiteral("call-line"));
        auto* caret = window.findChild<QLabel*>(QStringLiteral("call-error"));
        if (session.document()->callError()) {
            QVERIFY(caret->isVisible());
            QCOMPARE(caret->text().split(QLatin1Char('\n')).first(), reading);
            QVERIFY(line->toolTip().startsWith(reading));
        }
        auto* fix = window.findChild<QPushButton*>(QStringLiteral("fix-call"));
        QVERIFY(fix && fix->isVisible());
        QVERIFY(fix->toolTip().contains(meant));
        fix->click();
        QCOMPARE(session.document()->callText(), meant);
        QCOMPARE(session.document()->config(), *parse_call(meant.toStdString()).config);
        QVERIFY(!session.trace()->hasErrors());
    }

    void theLastValidTraceSaysWhoseItIs_data() { swappedCallsSayTheSwapEverywhere_data(); }

    // The pages that draw the trace dim it and name its call while the typed call cannot be traced;
    // the boxes say they hold the last call that bound. Once the call is valid, all of it goes.
    void theLastValidTraceSaysWhoseItIs()
    {
        QFETCH(QString, call);
        const QString last = QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)");
        Session session;
        MainWindow window(&session);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        session.document()->setCallText(last);
        QTRY_VERIFY_WITH_TIMEOUT(session.trace()->trace() && !session.computing(), 30000);
        QVERIFY(!session.trace()->traceStale());
        const auto banners = window.findChildren<QLabel*>(QStringLiteral("stale-trace"));
        QVERIFY(banners.size() >= 2); // the stepper's and the heatmaps'
        for (QLabel* banner : banners)
            QVERIFY(banner->isHidden());

        session.document()->setCallText(call);
        QVERIFY(session.trace()->traceStale());
        QCOMPARE(session.trace()->traceCall(), last);
        for (QLabel* banner : banners) {
            QVERIFY(!banner->isHidden());
            QVERIFY2(banner->text().startsWith(QStringLiteral("last valid trace: ") + last),
                     qPrintable(banner->text()));
        }
        auto* diagram = window.findChild<QWidget*>(QStringLiteral("shape-diagram"));
        QWidget* faded = diagram;
        while (faded && !faded->graphicsEffect())
            faded = faded->parentWidget();
        QVERIFY2(faded, "the stepper's diagram is not dimmed");
        auto* boxes = window.findChild<QLabel*>(QStringLiteral("config-last-valid"));
        QVERIFY(boxes);
        QCOMPARE(boxes->isHidden(), !session.document()->callError().has_value());
        if (session.document()->callError())
            QVERIFY(boxes->text().contains(last));

        window.findChild<QPushButton*>(QStringLiteral("fix-call"))->click();
        QVERIFY(!session.trace()->traceStale());
        for (QLabel* banner : banners)
            QVERIFY(banner->isHidden());
        QVERIFY(!diagram->graphicsEffect() && !faded->graphicsEffect());
        QVERIFY(boxes->isHidden());
    }

    void theAppOpensOnAnInvalidCall_data() { addCallRows(); }

    // The real program: it starts, takes the picture of what it shows, and exits 0.
    void theAppOpensOnAnInvalidCall()
    {
        QFETCH(QString, call);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        const testing::GuiRun run = testing::runGui({QStringLiteral("--call"), call, QStringLiteral("--tokens"),
                                                     QStringLiteral("8"), QStringLiteral("--screenshot"), png});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QImage picture(png);
        QVERIFY(!picture.isNull());
        QVERIFY(picture.width() >= 640 && picture.height() >= 480);
    }

    void onlyBadOptionsAndUnreadableFilesStopIt_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("says");
        const QString valid = QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)");
        QTest::newRow("--tokens not a number") << QStringList{"--call", valid, "--tokens", "many"} << "--tokens";
        QTest::newRow("--tokens 0") << QStringList{"--call", valid, "--tokens", "0"} << "--tokens";
        QTest::newRow("unknown view") << QStringList{"--view", "gallery"} << "--view";
        QTest::newRow("unknown preset") << QStringList{"--preset", "gpt5"} << "preset";
        QTest::newRow("--preset and --call") << QStringList{"--preset", "book", "--call", valid} << "either";
        QTest::newRow("unreadable session file")
            << QStringList{"--open", "/nonexistent/lesson.attnlab.json"} << "lesson.attnlab.json";
        QTest::newRow("unknown option") << QStringList{"--colour", "red"} << "colour";
    }

    void onlyBadOptionsAndUnreadableFilesStopIt()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const testing::GuiRun run =
            testing::runGui(arguments + QStringList{"--screenshot", dir.filePath(QStringLiteral("never.png"))});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(says), qPrintable(run.err));
        // One sentence (the platform may add warnings of its own on other lines).
        QStringList said;
        for (const QString& line : run.err.split(QLatin1Char('\n')))
            if (line.startsWith(QLatin1String("attention-lab:")) || line.startsWith(QLatin1String("Unknown option")))
                said << line;
        QVERIFY2(said.size() == 1 && said.front().endsWith(QLatin1Char('.')), qPrintable(run.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("never.png"))));
    }
};

QTEST_MAIN(TestUiInvalidCall)
#include "test_ui_invalid_call.moc"
