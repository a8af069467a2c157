// The GUI monkey test: thousands of random edits through the real widgets (spin boxes,
// the call line with valid, mutated and garbage text, check boxes), stage steps, view and heatmap
// switches, head and batch picks and preset changes, from a fixed seed, under the offscreen
// platform. No crash, no warning from Qt about misuse, and at the end a consistent state: the call
// line parses to what the spin boxes show, and once computing settles the trace is the session's.
#include "shell/call_line.h"
#include "shell/config_panel.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "features/stepper/stage_stepper.h"
#include "features/stepper/stepper_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

#include <random>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QStringList g_warnings;
QtMessageHandler g_previous = nullptr;

// What the offscreen platform and the fonts say about themselves, not about how the app uses Qt.
bool platformNoise(const QString& message)
{
    return message.contains(QLatin1String("propagateSizeHints")) ||
           message.contains(QLatin1String("OpenType support missing")) ||
           message.startsWith(QLatin1String("QStandardPaths:"));
}

void recordWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if ((type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg) && !platformNoise(message))
        g_warnings << message;
    if (g_previous)
        g_previous(type, context, message);
}

// Equal as calls: the same class and the same value in each of its slots (a SelfAttention_v2 config
// still carries the num_heads it had as a MultiHeadAttention, which no call of it can say).
bool sameCall(const Config& a, const Config& b)
{
    if (a.kind != b.kind)
        return false;
    for (const std::string& slot : module_slots(a.kind)) {
        const bool same = slot == "d_in"             ? a.d_in == b.d_in
                          : slot == "d_out"          ? a.d_out == b.d_out
                          : slot == "context_length" ? a.context_length == b.context_length
                          : slot == "dropout"        ? a.dropout == b.dropout
                          : slot == "num_heads"      ? a.num_heads == b.num_heads
                          : slot == "qkv_bias"       ? a.qkv_bias == b.qkv_bias
                                                     : false;
        if (!same)
            return false;
    }
    return true;
}

const std::vector<std::string> kIntSlots = {"d_in", "d_out", "num_heads", "context_length", "batch", "num_tokens"};

} // namespace

class TestUiMonkey : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void randomEditsKeepTheWindowConsistent();

private:
    int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }
    int smallish(int lo, int hi); // log-uniform in [lo, hi], mostly small
    QString randomCall();
    QString mutate(QString text);
    QString garbage();
    void act(int step);
    void checkConsistent(const char* when);

    std::mt19937 rng_{20240607};
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
    QMap<QString, int> counts_;
};

int TestUiMonkey::smallish(int lo, int hi)
{
    if (pick(30) == 0) // the edges now and then (the designs tab computes up to the default 2 GiB budget)
        return pick(2) ? lo : hi;
    const double span = std::log2(double(hi - lo) + 1.0);
    const double x = std::exp2(std::uniform_real_distribution<double>(0.0, span * 0.45)(rng_)) - 1.0;
    return std::min(hi, lo + static_cast<int>(x));
}

QString TestUiMonkey::randomCall()
{
    const int din = smallish(0, 64), dout = smallish(0, 64), ctx = smallish(0, 64), heads = smallish(0, 8);
    const QString drop = QString::number(pick(5) * 0.1, 'f', 1);
    switch (pick(6)) {
    case 0: return QStringLiteral("SelfAttention_v1(%1, %2)").arg(din).arg(dout);
    case 1:
        return QStringLiteral("SelfAttention_v2(%1, %2, qkv_bias=%3)")
            .arg(din)
            .arg(dout)
            .arg(pick(2) ? "True" : "False");
    case 2: return QStringLiteral("CausalAttention(%1, %2, %3, %4)").arg(din).arg(dout).arg(ctx).arg(drop);
    case 3:
        return QStringLiteral("MultiHeadAttentionWrapper(%1, %2, %3, %4, num_heads=%5)")
            .arg(din)
            .arg(dout)
            .arg(ctx)
            .arg(drop)
            .arg(heads);
    default:
        return QStringLiteral("MultiHeadAttention(d_in=%1, d_out=%2, context_length=%3, dropout=%4, num_heads=%5)")
            .arg(din)
            .arg(dout)
            .arg(ctx)
            .arg(drop)
            .arg(heads);
    }
}

QString TestUiMonkey::mutate(QString text)
{
    static const QString pool = QStringLiteral("0123456789()=,._-+eE jx'\"\\#*éß“”—\u00a0\u200b😀\t\n");
    for (int n = 1 + pick(3); n-- > 0 && !text.isEmpty();) {
        const int at = pick(static_cast<int>(text.size()));
        switch (pick(4)) {
        case 0: text.remove(at, 1 + pick(3)); break;
        case 1: text.insert(at, pool.at(pick(static_cast<int>(pool.size())))); break;
        case 2: text[at] = pool.at(pick(static_cast<int>(pool.size()))); break;
        default: text.insert(at, text.mid(at, pick(12))); break;
        }
    }
    return text;
}

QString TestUiMonkey::garbage()
{
    static const QStringList special = {
        QString(),
        QStringLiteral("MultiHeadAttention(99999999999999999999, 2, 6, 0.0, 2)"),
        QStringLiteral("MultiHeadAttention(3, 2, 6, 1e999, 2)"),
        QStringLiteral("MultiHeadAttention(3, 2, 6, float('nan'), 2)"),
        QStringLiteral("MultiHeadAttention(-3, 2, 6, -0.5, 2)"),
        QStringLiteral("MultiHeadAttention(3.5, 2, 6, 0.0, 2)"),
        QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2, True, 1)"),
        QStringLiteral("MultiHeadAtention(3, 2, 6, 0.0, 2)"),
        QStringLiteral("MultiHeadAttention(768, 768, 1048576, 0.0, 12)"),
        QStringLiteral("MultiHeadAttention(３, 2, 6, 0.0, 2)"),
        QString(QLatin1Char('\0')) + QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)"),
    };
    if (pick(3) == 0)
        return special.at(pick(static_cast<int>(special.size())));
    QString text;
    for (int n = pick(60); n-- > 0;)
        text += QChar(static_cast<char16_t>(pick(3) ? 32 + pick(95) : 1 + pick(0xD7FF)));
    return text;
}

void TestUiMonkey::act(int step)
{
    ConfigPanel* panel = window_->configPanel();
    CallLine* line = window_->callLine();
    switch (pick(20)) {
    case 0:
    case 1:
    case 2:
    case 3: { // a spin box set to a value in its range, as the arrows or a wheel would
        const std::string& slot = kIntSlots[static_cast<std::size_t>(pick(static_cast<int>(kIntSlots.size())))];
        auto* spin = qobject_cast<QSpinBox*>(panel->spinBox(slot));
        QVERIFY(spin);
        spin->setValue(smallish(spin->minimum(), spin->maximum()));
        ++counts_["spin value"];
        break;
    }
    case 4: { // typed into a spin box, garbage included (the validator filters it)
        const std::string& slot = kIntSlots[static_cast<std::size_t>(pick(static_cast<int>(kIntSlots.size())))];
        QAbstractSpinBox* spin = panel->spinBox(slot);
        spin->setFocus();
        spin->selectAll();
        static const QStringList typed = {"5", "12", "0", "-3", "1e9", "abc", "99999999999", "7.5", " ", "+-+"};
        QTest::keyClicks(spin, typed.at(pick(static_cast<int>(typed.size()))));
        if (pick(2))
            QTest::keyClick(spin, pick(2) ? Qt::Key_Up : Qt::Key_Down);
        ++counts_["spin typing"];
        break;
    }
    case 5: { // dropout
        auto* drop = qobject_cast<QDoubleSpinBox*>(panel->spinBox("dropout"));
        QVERIFY(drop);
        drop->setValue(pick(100) / 100.0);
        ++counts_["dropout"];
        break;
    }
    case 6:
    case 7:
    case 8: { // the call line: valid, mutated or garbage text, as an edit
        QString text = pick(3) == 0 ? randomCall() : pick(2) ? mutate(line->text()) : garbage();
        if (step == 1234) { // once, a pasted 30,000-argument call (the line keeps 32767 characters)
            text = QStringLiteral("MultiHeadAttention(");
            for (int k = 0; k < 30000; ++k)
                text += QStringLiteral("1, ");
        }
        line->setFocus();
        line->selectAll();
        if (text.isEmpty())
            QTest::keyClick(line, Qt::Key_Backspace);
        else
            line->insert(text); // emits textEdited, as typing does
        ++counts_["call text"];
        break;
    }
    case 9: { // typing single keys into the call line
        line->setFocus();
        line->setCursorPosition(pick(static_cast<int>(line->text().size()) + 1));
        static const QString keys = QStringLiteral("0123456789,() .=");
        if (pick(3) == 0)
            QTest::keyClick(line, Qt::Key_Backspace);
        else
            QTest::keyClicks(line, QString(keys.at(pick(static_cast<int>(keys.size())))));
        ++counts_["call keys"];
        break;
    }
    case 10:
    case 11: // steps, through the session and the keys the window binds
        if (pick(2)) {
            pick(2) ? session_->study()->nextStage() : session_->view()->previousStage();
        } else {
            window_->setFocus();
            QTest::keyClick(window_.get(), pick(2) ? Qt::Key_Right : Qt::Key_Left);
        }
        ++counts_["step"];
        break;
    case 12:
        session_->view()->setStageIndex(pick(40) - 5);
        ++counts_["step"];
        break;
    case 13: { // view (any tab the window has, as a click on it would) and heatmap kind
        auto* tabs = window_->findChild<QTabWidget*>();
        QVERIFY(tabs);
        if (pick(2))
            tabs->setCurrentIndex(pick(tabs->count()));
        else
            session_->view()->setTab(pick(2) ? ViewMode::Heatmaps : ViewMode::Stepper);
        session_->view()->setHeatmapKind(static_cast<AttentionMatrix>(pick(4)));
        ++counts_["view"];
        break;
    }
    case 14:
        session_->view()->setHead(pick(40) - 5);
        session_->view()->setBatchIndex(pick(10) - 2);
        ++counts_["head/batch"];
        break;
    case 15: { // a preset or a module class, picked in the combo boxes as a user would
        const char* name = pick(2) ? "preset" : "module-class";
        auto* combo = panel->findChild<QComboBox*>(QString::fromLatin1(name));
        QVERIFY(combo);
        const int index = pick(combo->count());
        combo->setCurrentIndex(index);
        Q_EMIT combo->activated(index);
        ++counts_["preset/module"];
        break;
    }
    case 16: { // check boxes
        auto* box = panel->findChild<QCheckBox*>(pick(2) ? QStringLiteral("qkv_bias") : QStringLiteral("training"));
        QVERIFY(box);
        if (box->isEnabled())
            box->click();
        ++counts_["check box"];
        break;
    }
    case 17: { // the fix buttons the diagnostics offer
        const auto buttons = window_->findChildren<QPushButton*>(QRegularExpression(QStringLiteral("^fix-")));
        if (!buttons.isEmpty())
            buttons.at(pick(static_cast<int>(buttons.size())))->click();
        ++counts_["fix button"];
        break;
    }
    default: // let results arrive now and then, as a human's pauses do
        QTest::qWait(pick(3));
        ++counts_["pause"];
        break;
    }
}

void TestUiMonkey::checkConsistent(const char* when)
{
    QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy(), 60000);
    ConfigPanel* panel = window_->configPanel();
    CallLine* line = window_->callLine();
    const Config& c = session_->document()->config();
    QCOMPARE(line->text(), session_->document()->callText());
    const ParsedCall parsed = parse_call(line->text().toStdString());
    if (session_->document()->callError()) {
        QVERIFY2(!parsed.ok(), when);
        QCOMPARE(parsed.error->message, session_->document()->callError()->message);
    } else {
        QVERIFY2(parsed.ok(), qPrintable(QString(when) + ": " + line->text()));
        QVERIFY2(sameCall(*parsed.config, c),
                 qPrintable(QString(when) + ": the call line says " + line->text() + " but the session has " +
                            QString::fromStdString(canonical_call(c))));
    }
    // The spin boxes show the config (clamped to their range: the call line can ask for more).
    const std::map<std::string, std::int64_t> values = {{"d_in", c.d_in},
                                                        {"d_out", c.d_out},
                                                        {"num_heads", c.num_heads},
                                                        {"context_length", c.context_length},
                                                        {"batch", session_->document()->batch()},
                                                        {"num_tokens", session_->document()->numTokens()}};
    for (const auto& [slot, value] : values) {
        auto* spin = qobject_cast<QSpinBox*>(panel->spinBox(slot));
        const std::int64_t shown = std::clamp<std::int64_t>(value, spin->minimum(), spin->maximum());
        QVERIFY2(spin->value() == shown, qPrintable(QStringLiteral("%1: spin box %2 shows %3, the session has %4")
                                                        .arg(when, QString::fromStdString(slot))
                                                        .arg(spin->value())
                                                        .arg(value)));
    }
    const auto trace = session_->trace()->trace();
    QVERIFY2(trace, when);
    if (!session_->trace()->hasErrors()) { // settled on the current settings
        QVERIFY2(sameCall(trace->config, c), qPrintable(QString(when) + ": the trace is of " +
                                                        QString::fromStdString(canonical_call(trace->config)) +
                                                        ", not of " + QString::fromStdString(canonical_call(c))));
        const Tensor& x = trace->stages.front().tensor;
        QCOMPARE(x.size(-1), c.d_in);
        QCOMPARE(x.size(-2), session_->document()->numTokens());
        if (c.is_batched())
            QCOMPARE(x.size(0), session_->document()->batch());
    } else { // the last good trace stays, and it was valid
        QVERIFY2(!has_error(validate(trace->config)), when);
    }
    QVERIFY(session_->view()->stage());
    QVERIFY(session_->view()->stageIndex() >= 0 &&
            session_->view()->stageIndex() < static_cast<int>(trace->stages.size()));
    QVERIFY(session_->view()->head() >= 0 && session_->view()->head() < session_->view()->headCount());
    QListWidget* list = window_->stepperView()->stepper()->list();
    QCOMPARE(list->count(), static_cast<int>(trace->stages.size()));
    QCOMPARE(list->currentRow(), session_->view()->stageIndex());
}

void TestUiMonkey::randomEditsKeepTheWindowConsistent()
{
    g_warnings.clear();
    g_previous = qInstallMessageHandler(recordWarnings);
    session_ = std::make_unique<Session>();
    session_->document()->setMemoryBudget(std::uint64_t{64} << 20); // random sizes stay quick; larger ones are refused
    window_ = std::make_unique<MainWindow>(session_.get());
    window_->resize(1280, 800);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    session_->document()->applyPreset(*findPreset(QStringLiteral("book")));

    QElapsedTimer timer;
    timer.start();
    const int steps = qEnvironmentVariableIntValue("ATTNLAB_MONKEY_ACTIONS") > 0
                          ? qEnvironmentVariableIntValue("ATTNLAB_MONKEY_ACTIONS")
                          : 2500;
    for (int i = 1; i <= steps; ++i) {
        act(i);
        if (QTest::currentTestFailed())
            return;
        if (i % 1000 == 0 || i == steps) {
            checkConsistent(qPrintable(QStringLiteral("after %1 random actions").arg(i)));
            if (QTest::currentTestFailed())
                return;
        }
    }

    // Then a valid call typed by hand: everything follows it.
    CallLine* line = window_->callLine();
    line->setFocus();
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)"));
    QVERIFY2(line->text() == QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)"),
             qPrintable(QStringLiteral("typed into the call line, it reads '%1' (visible %2, enabled %3, read-only %4)")
                            .arg(line->text())
                            .arg(line->isVisible())
                            .arg(line->isEnabled())
                            .arg(line->isReadOnly())));
    qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("num_tokens"))->setValue(5);
    qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("batch"))->setValue(2);
    QVERIFY2(!session_->trace()->hasErrors(),
             session_->trace()->diagnostics().empty() ? "" : session_->trace()->diagnostics().front().message.c_str());
    checkConsistent("after the final call");
    QCOMPARE(session_->trace()->trace()->config.d_in, 3);
    QCOMPARE(session_->trace()->trace()->stages.front().tensor.size(-2), 5);

    window_.reset();
    session_.reset();
    qInstallMessageHandler(g_previous);
    QString summary;
    for (auto it = counts_.cbegin(); it != counts_.cend(); ++it)
        summary += QStringLiteral(" %1 %2;").arg(it.key()).arg(it.value());
    qInfo("monkey: %d actions in %lld ms:%s", steps, static_cast<long long>(timer.elapsed()), qPrintable(summary));
    QVERIFY2(g_warnings.isEmpty(), qPrintable("Qt warned: " + g_warnings.mid(0, 10).join(" | ")));
}

QTEST_MAIN(TestUiMonkey)
#include "test_ui_monkey.moc"
