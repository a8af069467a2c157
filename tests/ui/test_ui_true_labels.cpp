// What the settings column says is true: a book preset's input is the book's six tokens, not seeded
// random numbers; the dropout preset's note is in a student's words and true in training mode; a slot
// the module does not take shows no value; the seed box is disabled, with the reason, where
// torch.manual_seed draws nothing (SimpleSelfAttention on the book's tokens, the trained model's weights).
#include "model/presets.h"
#include "common/session_parts.h"
#include "shell/config_panel.h"
#include "shell/text_input_panel.h"

#include <QAbstractSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiTrueLabels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void book_presets_say_the_books_input_data()
    {
        QTest::addColumn<QString>("id");
        for (const Preset& p : presets())
            QTest::newRow(qPrintable(p.id)) << p.id;
    }

    void book_presets_say_the_books_input()
    {
        QFETCH(QString, id);
        Session session;
        TextInputPanel panel(&session);
        const Preset* preset = findPreset(id);
        session.document()->applyPreset(*preset);
        const QString about = panel.findChild<QLabel*>(QStringLiteral("text-input-about"))->text();
        if (preset->bookInput) {
            QVERIFY2(about.contains(QStringLiteral("the book's six tokens")), qPrintable(about));
            QVERIFY2(!about.contains(QStringLiteral("random")), qPrintable(about));
        } else {
            QVERIFY2(about.contains(QStringLiteral("seeded random numbers")), qPrintable(about));
        }
    }

    void dropout_note_is_true_in_training_mode()
    {
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("book-3.5-dropout")));
        QVERIFY(session.document()->training()); // the book's dropout example runs in training mode
        bool noted = false;
        for (const Diagnostic& d : session.trace()->diagnostics()) {
            if (d.code != DiagnosticCode::DropoutEval)
                continue;
            noted = true;
            QVERIFY2(d.message.find("golden") == std::string::npos, d.message.c_str());
            QVERIFY2(d.message.find("acts only in training mode") != std::string::npos, d.message.c_str());
            QVERIFY2(d.message.find("zeroes each attention weight with probability 0.5") != std::string::npos,
                     d.message.c_str());
        }
        QVERIFY(noted);
    }

    void slots_the_module_does_not_take_show_no_value()
    {
        Session session;
        ConfigPanel panel(&session);
        session.document()->setModuleKind(ModuleKind::SimpleSelfAttention);
        for (const char* slot : {"num_heads", "context_length", "dropout"}) {
            QAbstractSpinBox* box = panel.spinBox(slot);
            QVERIFY2(!box->isEnabled(), slot);
            QCOMPARE(box->text(), QStringLiteral("not applicable"));
            QVERIFY2(box->toolTip().contains(QStringLiteral("takes no")), slot);
        }
        QVERIFY(panel.spinBox("d_in")->isEnabled() == false && panel.spinBox("d_in")->text() == QStringLiteral("3"));
        session.document()->setModuleKind(ModuleKind::MultiHeadAttention); // the values come back with the slots
        QCOMPARE(panel.spinBox("num_heads")->text(), QString::number(session.document()->config().num_heads));
        QVERIFY(panel.spinBox("num_heads")->isEnabled());
        QVERIFY(!panel.spinBox("num_heads")->toolTip().contains(QStringLiteral("takes no")));
    }

    // The head_dim line counts the key/value heads as they are: one is "1 key/value head", shared by all.
    void key_value_heads_said_in_number_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("says");
        QTest::newRow("grouped") << "GroupedQueryAttention(32, 32, 32, 0.0, 8, 2)"
                                 << "2 key/value heads, each shared by <b>4</b> query heads";
        QTest::newRow("multi-query") << "GroupedQueryAttention(32, 32, 32, 0.0, 8, 1)"
                                     << "1 key/value head, shared by all <b>8</b> query heads (multi-query)";
        QTest::newRow("not whole groups") << "GroupedQueryAttention(32, 32, 32, 0.0, 8, 3)"
                                          << "3 key/value heads for 8 query heads";
    }

    void key_value_heads_said_in_number()
    {
        QFETCH(QString, call);
        QFETCH(QString, says);
        Session session;
        ConfigPanel panel(&session);
        session.document()->setCallText(call);
        const auto* label = panel.findChild<QLabel*>(QStringLiteral("head-dim"));
        QVERIFY(label);
        QVERIFY2(label->text().contains(says), qPrintable(label->text()));
    }

    void seed_box_is_disabled_where_it_draws_nothing()
    {
        Session session;
        ConfigPanel panel(&session);
        auto* seed = panel.findChild<QSpinBox*>(QStringLiteral("seed"));
        QVERIFY(seed->isEnabled()); // GPT-2 small: the seed draws the weights
        session.document()->applyPreset(*findPreset(QStringLiteral("book-3.3")));
        QCOMPARE(session.document()->config().kind, ModuleKind::SimpleSelfAttention);
        QVERIFY(!seed->isEnabled());
        QVERIFY2(seed->toolTip().contains(QStringLiteral("no weights")), qPrintable(seed->toolTip()));
        session.document()->setModuleKind(ModuleKind::SelfAttentionV2);
        QVERIFY(seed->isEnabled());
        session.trace()->useTrainedModel(4, 0);
        QVERIFY(!seed->isEnabled());
        QVERIFY2(seed->toolTip().contains(QStringLiteral("trained model's")), qPrintable(seed->toolTip()));
        session.document()->setSlot(Slot::d_out, 64); // the trained weights no longer fit: seeded ones are drawn
        QVERIFY(seed->isEnabled());
    }
};

QTEST_MAIN(TestUiTrueLabels)
#include "test_ui_true_labels.moc"
