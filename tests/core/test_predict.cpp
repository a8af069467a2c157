// Predict, then reveal: every stage of several modules asks its shape (and, for layout steps and the
// mask, more); the true answer is right axis by axis, a wrong one says what the axis needed in the
// config's numbers.
#include "common/trace_fixtures.h"
#include "lessons/predict.h"
#include "poll/poll_question.h"
#include "tensor/error.h"

#include <QtTest>

using namespace attnlab;

Q_DECLARE_METATYPE(std::vector<double>)

class TestPredict : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theTruthIsRight_data();
    void theTruthIsRight();
    void wrongAxisSaysWhatItNeeded_data();
    void wrongAxisSaysWhatItNeeded();
    void layoutQuestions_data();
    void layoutQuestions();
    void theMask();
    void theMaskWithAWindow();
    void unknownStage();
    void theGivensAndTheCodeLine_data();
    void theGivensAndTheCodeLine();
    void whichHeadLooksBack_data();
    void whichHeadLooksBack();
    void whichHeadNotAsked_data();
    void whichHeadNotAsked();
};

void TestPredict::theTruthIsRight_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("tokens");
    QTest::newRow("book") << "MultiHeadAttention(3, 2, 6, 0.0, 2)" << 6;
    QTest::newRow("gpt2-small") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)" << 4;
    QTest::newRow("wrapper") << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)" << 6;
    QTest::newRow("causal") << "CausalAttention(3, 2, 6, 0.0)" << 5;
    QTest::newRow("v1") << "SelfAttention_v1(3, 2)" << 6;
    QTest::newRow("simple") << "SimpleSelfAttention()" << 6;
    QTest::newRow("gqa") << "GroupedQueryAttention(8, 12, 8, 0.0, 6, 2)" << 5;
    QTest::newRow("mqa-window") << "GroupedQueryAttention(8, 8, 8, 0.0, 4, 1, window_size=2)" << 6;
}

void TestPredict::theTruthIsRight()
{
    QFETCH(QString, call);
    QFETCH(int, tokens);
    const auto trace = testing::traceOf(call.toStdString(), tokens);
    int asked = 0;
    for (const Stage& s : trace->stages) {
        const StageQuestion q = question_for(*trace, s.name);
        QCOMPARE(q.axes.size(), static_cast<std::size_t>(s.tensor.dim()));
        StageAnswer numbers, names;
        for (const AxisQuestion& a : q.axes) {
            numbers.axes.push_back(std::to_string(a.size));
            names.axes.push_back(a.name);
        }
        for (StageAnswer* answer : {&numbers, &names}) {
            answer->contiguous = q.contiguous;
            answer->shares_storage = q.shares_storage;
            // The causal cells, and with a window those window_size or more tokens back too (as PyTorch's mask).
            const std::int64_t w = trace->config.window_size.value_or(0);
            for (std::int64_t i = 0; i < q.tokens; ++i)
                for (std::int64_t j = 0; j < q.tokens; ++j)
                    if (j > i || (w > 0 && i - j >= w))
                        answer->hidden.push_back({i, j});
            const PredictionCheck c = check_prediction(*trace, q, *answer);
            QVERIFY2(c.all_right(), (s.name + ": " + (c.axes.empty() ? "" : c.axes.front().says)).c_str());
        }
        // An empty answer is never right.
        QVERIFY(!check_prediction(*trace, q, {}).all_right());
        ++asked;
    }
    QCOMPARE(asked, static_cast<int>(trace->stages.size()));
}

void TestPredict::wrongAxisSaysWhatItNeeded_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QStringList>("answer");
    QTest::addColumn<int>("wrongAxis");
    QTest::addColumn<QString>("says");
    QTest::newRow("head_dim-as-num_heads") << "queries.view" << QStringList{"1", "4", "12", "12"} << 3
                                           << "axis 3 is head_dim = d_out / num_heads = 768 / 12 = 64, not 12.";
    QTest::newRow("heads-not-transposed") << "queries.heads" << QStringList{"b", "num_tokens", "num_heads", "head_dim"}
                                          << 1 << "axis 1 is num_heads = 12, not num_tokens (4).";
    QTest::newRow("scores-square") << "attn_scores" << QStringList{"1", "12", "4", "64"} << 3
                                   << "axis 3 is num_tokens = the tokens in the input, 4, not 64.";
    QTest::newRow("not-a-name") << "context.merged" << QStringList{"1", "4", "width"} << 2
                                << "'width' is neither a whole number nor one of";
}

void TestPredict::wrongAxisSaysWhatItNeeded()
{
    QFETCH(QString, stage);
    QFETCH(QStringList, answer);
    QFETCH(int, wrongAxis);
    QFETCH(QString, says);
    const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 4);
    const StageQuestion q = question_for(*trace, stage.toStdString());
    StageAnswer a;
    for (const QString& s : answer)
        a.axes.push_back(s.toStdString());
    const PredictionCheck c = check_prediction(*trace, q, a);
    QVERIFY(c.axes.at(0).right); // b is never the mistake here
    QVERIFY(!c.axes.at(wrongAxis).right);
    QVERIFY(!c.all_right());
    QVERIFY2(QString::fromStdString(c.axes[wrongAxis].says).contains(says), c.axes[wrongAxis].says.c_str());
}

void TestPredict::layoutQuestions_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<bool>("contiguous");
    QTest::addColumn<bool>("shares");
    QTest::newRow("view") << "queries.view" << true << true;
    QTest::newRow("heads") << "keys.heads" << false << true;
    QTest::newRow("transposed") << "context.transposed" << false << true;
    QTest::newRow("merged") << "context.merged" << true << false;
}

void TestPredict::layoutQuestions()
{
    QFETCH(QString, stage);
    QFETCH(bool, contiguous);
    QFETCH(bool, shares);
    const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 4);
    const StageQuestion q = question_for(*trace, stage.toStdString());
    QVERIFY(q.asks_layout);
    QCOMPARE(q.contiguous, contiguous);
    QCOMPARE(q.shares_storage, shares);
    StageAnswer a;
    for (const auto& axis : q.axes)
        a.axes.push_back(axis.name);
    a.contiguous = !contiguous; // the common mistake: the other way round
    a.shares_storage = shares;
    const PredictionCheck c = check_prediction(*trace, q, a);
    QVERIFY(!c.all_right());
    QVERIFY(c.contiguous && !c.contiguous->right);
    QVERIFY(c.shares_storage && c.shares_storage->right);
    QVERIFY(!question_for(*trace, "attn_scores").asks_layout);
}

void TestPredict::theMask()
{
    const auto trace = testing::traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 6, InputSource::Book);
    const StageQuestion q = question_for(*trace, "attn_scores.masked");
    QVERIFY(q.asks_mask);
    QCOMPARE(q.tokens, 6);
    StageAnswer a;
    for (const auto& axis : q.axes)
        a.axes.push_back(std::to_string(axis.size));
    for (std::int64_t i = 0; i < 6; ++i) // the diagonal too: the mistake of masking what a token may see of itself
        for (std::int64_t j = i; j < 6; ++j)
            a.hidden.push_back({i, j});
    const PredictionCheck c = check_prediction(*trace, q, a);
    QVERIFY(c.mask && !c.mask->right);
    QVERIFY2(QString::fromStdString(c.mask->says).contains("6 marked positions are visible"), c.mask->says.c_str());
    QVERIFY(!question_for(*trace, "attn_weights").asks_mask);
}

// With a sliding window of 2 the mask also hides the keys 2 or more tokens back: the causal answer alone is
// wrong by those 10 positions, the stage's own -inf cells are right, and the class's poll asks for the same cells.
void TestPredict::theMaskWithAWindow()
{
    const auto trace =
        testing::traceOf("GroupedQueryAttention(3, 4, 6, 0.0, 2, 1, window_size=2)", 6, InputSource::Book);
    const StageQuestion q = question_for(*trace, "attn_scores.masked");
    QVERIFY(q.asks_mask);
    QCOMPARE(q.window, 2);
    QCOMPARE(q.hidden.size(), std::size_t{15 + 10});
    StageAnswer causal;
    for (const auto& axis : q.axes)
        causal.axes.push_back(std::to_string(axis.size));
    for (std::int64_t i = 0; i < 6; ++i)
        for (std::int64_t j = i + 1; j < 6; ++j)
            causal.hidden.push_back({i, j});
    const PredictionCheck wrong = check_prediction(*trace, q, causal);
    QVERIFY(wrong.mask && !wrong.mask->right);
    QVERIFY2(QString::fromStdString(wrong.mask->says).contains("10 hidden ones were not marked"),
             wrong.mask->says.c_str());
    QVERIFY2(QString::fromStdString(wrong.mask->says).contains("the sliding window every key 2 or more tokens back"),
             wrong.mask->says.c_str());
    StageAnswer windowed = causal;
    windowed.hidden = q.hidden;
    const PredictionCheck right = check_prediction(*trace, q, windowed);
    QVERIFY2(right.mask && right.mask->right, right.mask ? right.mask->says.c_str() : "");
    QVERIFY(right.all_right());
    const poll::Question asked = poll::from_stage(*trace, q);
    const auto cells =
        std::find_if(asked.fields.begin(), asked.fields.end(), [](const poll::Field& f) { return f.name == "hidden"; });
    QVERIFY(cells != asked.fields.end());
    QVERIFY2(QString::fromStdString(cells->right).contains("2-0"), cells->right.c_str()); // query 2 cannot see key 0
}

// What a question is answered from, said with it (the settings column is out of view when presenting): the
// config's and the input's sizes, and the book's line that makes the stage.
void TestPredict::theGivensAndTheCodeLine_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("code");
    QTest::newRow("mha-queries-view") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)"
                                      << "queries.view"
                                      << "d_in = 768, d_out = 768, num_heads = 12 · input: batch = 1, num_tokens = 4"
                                      << "queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)";
    QTest::newRow("mha-keys") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)"
                              << "keys"
                              << "d_in = 768, d_out = 768, num_heads = 12 · input: batch = 1, num_tokens = 4"
                              << "keys = self.W_key(x)";
    QTest::newRow("mha-x-the-argument") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)"
                                        << "x"
                                        << "d_in = 768, d_out = 768, num_heads = 12 · input: batch = 1, num_tokens = 4"
                                        << "def forward(self, x):";
    QTest::newRow("gqa-keys-repeated")
        << "GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4, window_size=8)"
        << "keys.repeated"
        << "d_in = 768, d_out = 768, num_heads = 12, num_kv_groups = 4, window_size = 8 · input: batch = 1, "
           "num_tokens = 4"
        << "keys = keys.repeat_interleave(self.group_size, dim=1)";
    QTest::newRow("v2-unbatched") << "SelfAttention_v2(3, 2)"
                                  << "attn_weights"
                                  << "d_in = 3, d_out = 2 · input: num_tokens = 4"
                                  << "attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)";
}

void TestPredict::theGivensAndTheCodeLine()
{
    QFETCH(QString, call);
    QFETCH(QString, stage);
    QFETCH(QString, given);
    QFETCH(QString, code);
    const auto trace = testing::traceOf(call.toStdString(), 4);
    const StageQuestion q = question_for(*trace, stage.toStdString());
    QCOMPARE(QString::fromStdString(q.given), given);
    QCOMPARE(QString::fromStdString(q.code), code);
}

void TestPredict::unknownStage()
{
    const auto trace = testing::traceOf("SelfAttention_v2(3, 2)", 6);
    QVERIFY_THROWS_EXCEPTION(Error, question_for(*trace, "queries.view"));
}

namespace {

std::vector<HeadMeasures> previousShares(const std::vector<double>& shares)
{
    std::vector<HeadMeasures> out;
    for (const double v : shares)
        out.push_back({0, 0, v, 0});
    return out;
}

} // namespace

void TestPredict::whichHeadLooksBack_data()
{
    QTest::addColumn<int>("pick");
    QTest::addColumn<bool>("right");
    QTest::addColumn<QString>("says");
    QTest::newRow("the best head") << 1 << true
                                   << "head 1 puts 0.85 of each token's weight on the token just before "
                                      "it, the most of the 4 heads (spread evenly over the past it would be";
    QTest::newRow("as good within the tie") << 3 << true
                                            << "head 3 puts 0.82 of each token's weight on the token "
                                               "just before it, nearly as much as head 1's 0.85";
    QTest::newRow("just under the tie") << 0 << false << "head 0 puts 0.80 of each token's weight";
    QTest::newRow("another head") << 2 << false
                                  << "head 2 puts 0.30 of each token's weight on the token just before "
                                     "it; head 1 is the one that looks at the previous token, with 0.85";
}

// The question reads the heads' measures as given, and the reveal says the picked head's share and the best's.
void TestPredict::whichHeadLooksBack()
{
    QFETCH(int, pick);
    QFETCH(bool, right);
    QFETCH(QString, says);
    const auto trace = testing::traceOf("MultiHeadAttention(3, 4, 6, 0.0, 4)", 6);
    const auto q = head_question_for(*trace, "attn_weights", previousShares({0.8, 0.85, 0.3, 0.82}));
    QVERIFY(q);
    QCOMPARE(QString::fromStdString(q->prompt), QStringLiteral("Which head looks at the previous token?"));
    QCOMPARE(q->best, 1);
    QCOMPARE(q->uniform, uniform_measures(6).previous);
    const Verdict v = check_head_pick(*q, pick);
    QCOMPARE(v.right, right);
    QVERIFY2(QString::fromStdString(v.says).startsWith(says), v.says.c_str());
    QVERIFY_THROWS_EXCEPTION(Error, check_head_pick(*q, 4));
    // The measures of the trace's own weights are what the question holds.
    const std::vector<HeadMeasures> measured = head_measures(trace->find("attn_weights")->tensor);
    if (const auto own = head_question_for(*trace, "attn_weights", measured))
        for (std::size_t h = 0; h < measured.size(); ++h)
            QCOMPARE(own->previous[h], measured[h].previous);
}

void TestPredict::whichHeadNotAsked_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<std::vector<double>>("shares");
    QTest::newRow("heads alike") << "MultiHeadAttention(3, 4, 6, 0.0, 4)"
                                 << "attn_weights" << std::vector<double>{0.3, 0.32, 0.35, 0.31};
    QTest::newRow("not the weights") << "MultiHeadAttention(3, 4, 6, 0.0, 4)"
                                     << "attn_scores" << std::vector<double>{0.2, 0.85, 0.3, 0.1};
    QTest::newRow("measures of another model") << "MultiHeadAttention(3, 4, 6, 0.0, 4)"
                                               << "attn_weights" << std::vector<double>{0.2, 0.85};
    QTest::newRow("no measures (no text)") << "MultiHeadAttention(3, 4, 6, 0.0, 4)"
                                           << "attn_weights" << std::vector<double>{};
    QTest::newRow("a wrapper head's own weights") << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)"
                                                  << "heads.0.attn_weights" << std::vector<double>{0.2, 0.85};
}

void TestPredict::whichHeadNotAsked()
{
    QFETCH(QString, call);
    QFETCH(QString, stage);
    QFETCH(std::vector<double>, shares);
    const auto trace = testing::traceOf(call.toStdString(), 6);
    QVERIFY(!head_question_for(*trace, stage.toStdString(), previousShares(shares)));
}

QTEST_GUILESS_MAIN(TestPredict)
#include "test_predict.moc"
