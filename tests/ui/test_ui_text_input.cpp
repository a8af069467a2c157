// The Text input in the window: a sentence through the 4-head GPT trained on The Verdict reaches
// the heatmaps with its trained weights (the trace equals PyTorch's), token chips mark <|unk|>,
// editing d_out away explains and falls back to seeded weights, and undo brings the trained heads back.
#include "common/golden_compare.h"
#include "common/session_fixtures.h"
#include "forward/trace.h"
#include "io/safetensors.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "model/undo_commands.h"
#include "shell/text_input_panel.h"
#include "widgets/token_chips.h"

#include <QLineEdit>
#include <QUndoStack>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

bool hasDiagnostic(const Session& s, DiagnosticCode code)
{
    for (const auto& d : s.trace()->diagnostics())
        if (d.code == code)
            return true;
    return false;
}

std::string weightsDiff(const Session& s, int layer)
{
    const SafetensorsFile ref =
        read_safetensors(ATTNLAB_TEST_DATA_DIR "/gpt/verdict-h4-layer" + std::to_string(layer) + ".safetensors");
    return testing::compare_tensors(s.trace()->trace()->find("attn_weights")->tensor,
                                    *ref.find("expected.attn_weights"), {1e-4, 1e-4});
}

} // namespace

class TestUiTextInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trained_layer_reaches_the_trace_data();
    void trained_layer_reaches_the_trace();
    void chips_mark_unknown_tokens();
    void editing_d_out_falls_back_and_undo_restores();
    void panel_edits_the_session();
    void session_file_keeps_the_text();
};

void TestUiTextInput::trained_layer_reaches_the_trace_data()
{
    QTest::addColumn<int>("layer");
    QTest::newRow("layer0") << 0;
    QTest::newRow("layer1") << 1;
}

void TestUiTextInput::trained_layer_reaches_the_trace()
{
    QFETCH(int, layer);
    Session s;
    s.trace()->useTrainedModel(4, layer);
    QVERIFY(s.document()->usesTextInput());
    QCOMPARE(s.document()->config().d_out, 128);
    QCOMPARE(s.document()->config().num_heads, 4);
    QCOMPARE(s.document()->numTokens(), 57);
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(s), 20000);
    const std::string diff = weightsDiff(s, layer);
    QVERIFY2(diff.empty(), diff.c_str());
    QCOMPARE(s.trace()->tokenLabels().first(), QStringLiteral("I"));
    QCOMPARE(s.trace()->tokenLabels().at(1), QStringLiteral("HAD"));
    QVERIFY(!hasDiagnostic(s, DiagnosticCode::TrainedWeights));
}

void TestUiTextInput::chips_mark_unknown_tokens()
{
    Session s;
    TextInputPanel panel(&s);
    s.trace()->useTrainedModel(1, 0);
    s.trace()->setInputText("Hello Jack");
    auto* chips = panel.findChild<TokenChips*>("text-input-chips");
    QVERIFY(chips);
    QCOMPARE(chips->tokens().ids, (std::vector<std::int64_t>{1131, 57}));
    QCOMPARE(chips->accessibleDescription(), QStringLiteral("Hello → <|unk|> 1131, Jack 57"));
    QVERIFY(chips->heightForWidth(600) > 0);
    QImage image(600, 80, QImage::Format_ARGB32);
    chips->resize(600, chips->heightForWidth(600));
    chips->render(&image); // paints without a window
}

void TestUiTextInput::editing_d_out_falls_back_and_undo_restores()
{
    Session s;
    SettingsHistory history(s.document());
    s.trace()->useTrainedModel(4, 1);
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(s), 20000);
    QVERIFY(weightsDiff(s, 1).empty());
    s.document()->setSlot(Slot::d_out, 64);
    QVERIFY(hasDiagnostic(s, DiagnosticCode::TrainedWeights));
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(s) && s.trace()->trace()->config.d_out == 64, 20000);
    QCOMPARE(s.trace()->trace()->find("x")->tensor.size(-1), 128); // the model's x still fits d_in
    s.document()->setSlot(Slot::d_in, 96);
    bool said = false;
    for (const auto& d : s.trace()->diagnostics())
        said |= d.code == DiagnosticCode::TrainedWeights && d.message.find("seeded input") != std::string::npos;
    QVERIFY(said);
    history.stack()->undo();
    history.stack()->undo();
    QCOMPARE(s.document()->config().d_out, 128);
    QCOMPARE(s.document()->config().d_in, 128);
    QVERIFY(!hasDiagnostic(s, DiagnosticCode::TrainedWeights));
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(s) && s.trace()->trace()->config.d_out == 128, 20000);
    QVERIFY(weightsDiff(s, 1).empty());
}

void TestUiTextInput::panel_edits_the_session()
{
    Session s;
    TextInputPanel panel(&s);
    s.trace()->useTrainedModel(2, 0);
    auto* edit = panel.findChild<QLineEdit*>("text-input-text");
    QVERIFY(edit);
    QCOMPARE(edit->text(), s.document()->inputText());
    edit->selectAll();
    QTest::keyClicks(edit, "Jack wrote a note");
    QCOMPARE(s.document()->inputText(), QStringLiteral("Jack wrote a note"));
    QCOMPARE(s.document()->numTokens(), 4);
    QCOMPARE(s.trace()->textTokens().unknown, (std::vector<bool>{false, true, false, false}));
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(s) && s.trace()->trace()->find("x")->tensor.size(1) == 4, 20000);
    QCOMPARE(s.trace()->tokenLabels(), (QStringList{"Jack", "wrote", "a", "note"}));
    s.document()->useSeededInput();
    QVERIFY(!s.document()->usesTextInput());
    QVERIFY(!edit->isVisibleTo(&panel));
}

void TestUiTextInput::session_file_keeps_the_text()
{
    Session s;
    s.trace()->useTrainedModel(8, 1);
    s.trace()->setInputText("he had dropped his painting.");
    const QJsonObject json = sessionToJson(captureState(s), sessionFeatures());
    QString error;
    const auto back = sessionFromJson(json, sessionFeatures(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->document.spec.input, InputSource::Text);
    QCOMPARE(back->document.spec.text, std::string("he had dropped his painting."));
    QCOMPARE(back->document.spec.gpt_layer, 1);
    QCOMPARE(back->document.spec.gpt_model_path, s.document()->spec().gpt_model_path);
}

QTEST_MAIN(TestUiTextInput)
#include "test_ui_text_input.moc"
