// Ask the class, the part without a network: a stage's question as fields, a student's answer read against
// them, and the tally of a class over rounds. The poll must judge every answer as Predict First does.
#include "common/trace_fixtures.h"
#include "lessons/predict.h"
#include "poll/poll_question.h"
#include "poll/poll_tally.h"
#include "tensor/error.h"

#include <QtTest>

using namespace attnlab;

class TestPoll : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void judgedAsPredictFirst_data();
    void judgedAsPredictFirst();
    void fieldsOfAStage_data();
    void fieldsOfAStage();
    void answersRefused_data();
    void answersRefused();
    void cellsCanonical();
    void headsQuestion();
    void teacherChoice();
    void tallyRounds();
    void wrongAnswersInTheAppsWords();
};

void TestPoll::judgedAsPredictFirst_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("tokens");
    QTest::newRow("book") << "MultiHeadAttention(3, 2, 6, 0.0, 2)" << 6;
    QTest::newRow("gpt2-small") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)" << 4;
    QTest::newRow("wrapper") << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)" << 6;
    QTest::newRow("causal") << "CausalAttention(3, 2, 6, 0.0)" << 5;
    QTest::newRow("equal-sizes") << "MultiHeadAttention(4, 4, 4, 0.0, 2)" << 4; // num_tokens = d_out: names collide
}

// Every stage, every axis, every name a student may give and a few numbers: the poll's verdict on the axis is
// check_prediction's, with the other axes answered right.
void TestPoll::judgedAsPredictFirst()
{
    QFETCH(QString, call);
    QFETCH(int, tokens);
    const auto trace = testing::traceOf(call.toStdString(), tokens);
    int judged = 0;
    for (const Stage& s : trace->stages) {
        const StageQuestion q = question_for(*trace, s.name);
        const poll::Question pq = poll::from_stage(*trace, q);
        QCOMPARE(pq.id, "stage:" + s.name);
        for (std::size_t a = 0; a < q.axes.size(); ++a) {
            std::vector<std::string> tries = q.offered;
            for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, q.axes[a].size, q.axes[a].size + 1})
                tries.push_back(std::to_string(n));
            for (const std::string& given : tries) {
                StageAnswer answer;
                poll::Answer raw;
                for (std::size_t k = 0; k < q.axes.size(); ++k) {
                    answer.axes.push_back(k == a ? given : q.axes[k].name);
                    raw["axis-" + std::to_string(k)] = answer.axes.back();
                }
                if (q.asks_layout) {
                    raw["contiguous"] = q.contiguous ? "yes" : "no";
                    raw["shares-storage"] = q.shares_storage ? "yes" : "no";
                }
                if (q.asks_mask)
                    raw["hidden"] = pq.fields.back().right;
                const poll::Answer read = poll::read_answer(pq, raw);
                const bool pollSays = poll::is_right(pq.fields[a], read.at("axis-" + std::to_string(a)));
                const bool predictSays = check_prediction(*trace, q, answer).axes.at(a).right;
                QVERIFY2(pollSays == predictSays, (s.name + " axis " + std::to_string(a) + " given " + given).c_str());
                ++judged;
            }
        }
    }
    QVERIFY(judged > 50);
}

void TestPoll::fieldsOfAStage_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QStringList>("fields");
    QTest::addColumn<QStringList>("right");
    QTest::newRow("queries") << "queries" << QStringList{"axis-0", "axis-1", "axis-2"}
                             << QStringList{"b", "num_tokens", "d_out"};
    QTest::newRow("keys.heads") << "keys.heads"
                                << QStringList{"axis-0", "axis-1", "axis-2", "axis-3", "contiguous", "shares-storage"}
                                << QStringList{"b", "num_heads", "num_tokens", "head_dim", "no", "yes"};
    QTest::newRow("context.merged") << "context.merged"
                                    << QStringList{"axis-0", "axis-1", "axis-2", "contiguous", "shares-storage"}
                                    << QStringList{"b", "num_tokens", "d_out", "yes", "no"};
    QTest::newRow("mask") << "attn_scores.masked" << QStringList{"axis-0", "axis-1", "axis-2", "axis-3", "hidden"}
                          << QStringList{"b", "num_heads", "num_tokens", "num_tokens", "0-1,0-2,1-2"};
}

void TestPoll::fieldsOfAStage()
{
    QFETCH(QString, stage);
    QFETCH(QStringList, fields);
    QFETCH(QStringList, right);
    const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 3);
    const poll::Question q = poll::from_stage(*trace, question_for(*trace, stage.toStdString()));
    QStringList names, truths;
    for (const poll::Field& f : q.fields) {
        names << QString::fromStdString(f.name);
        truths << QString::fromStdString(f.right);
        QVERIFY(poll::is_right(f, f.right));
    }
    QCOMPARE(names, fields);
    QCOMPARE(truths, right);
    const char* last = stage == "attn_scores.masked" ? "cells" : fields.contains("contiguous") ? "yes-no" : "size";
    QCOMPARE(poll::kind_name(q.fields.back().kind), std::string_view(last));
}

void TestPoll::answersRefused_data()
{
    QTest::addColumn<QStringList>("keysAndValues");
    QTest::addColumn<QString>("says");
    QTest::newRow("missing-field") << QStringList{"axis-0", "1", "axis-1", "3"} << "The answer has no \"axis-2\"";
    QTest::newRow("unknown-field") << QStringList{"axis-0", "1", "axis-1", "3", "axis-2", "768", "x", "1"}
                                   << "This question has no field \"x\"";
    QTest::newRow("not-a-name") << QStringList{"axis-0", "1", "axis-1", "width", "axis-2", "768"}
                                << "\"axis-1\" is a whole number from 0 or one of";
    QTest::newRow("negative") << QStringList{"axis-0", "-1", "axis-1", "3", "axis-2", "768"} << "\"axis-0\" is a whole";
    QTest::newRow("markup") << QStringList{"axis-0", "<b>1</b>", "axis-1", "3", "axis-2", "768"} << "\"axis-0\" is";
    QTest::newRow("too-large") << QStringList{"axis-0", "99999999999999999999", "axis-1", "3", "axis-2", "768"}
                               << "\"axis-0\" is a whole";
    QTest::newRow("empty") << QStringList{"axis-0", " ", "axis-1", "3", "axis-2", "768"} << "\"axis-0\" is a whole";
}

void TestPoll::answersRefused()
{
    QFETCH(QStringList, keysAndValues);
    QFETCH(QString, says);
    const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 3);
    const poll::Question q = poll::from_stage(*trace, question_for(*trace, "queries"));
    poll::Answer raw;
    for (int i = 0; i + 1 < keysAndValues.size(); i += 2)
        raw[keysAndValues[i].toStdString()] = keysAndValues[i + 1].toStdString();
    try {
        poll::read_answer(q, raw);
        QFAIL("read");
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(says), e.what());
    }
}

void TestPoll::cellsCanonical()
{
    const auto trace = testing::traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 3);
    const poll::Question q = poll::from_stage(*trace, question_for(*trace, "attn_scores.masked"));
    poll::Answer raw{{"axis-0", "1"}, {"axis-1", "2"}, {"axis-2", "3"}, {"axis-3", "3"}, {"hidden", " 1-2, 0-2,0-1 "}};
    QCOMPARE(poll::read_answer(q, raw).at("hidden"), std::string("0-1,0-2,1-2"));
    QVERIFY(poll::is_right(q.fields.back(), "0-1,0-2,1-2"));
    raw["hidden"] = "";
    QCOMPARE(poll::read_answer(q, raw).at("hidden"), std::string());
    QVERIFY(!poll::is_right(q.fields.back(), ""));
    raw["hidden"] = "0-1,"; // a trailing comma, as a hand-typed list has
    QCOMPARE(poll::read_answer(q, raw).at("hidden"), std::string("0-1"));
    for (const char* bad : {"0-3", "1-1,1-1", "a-b", ",0-1", "-1-0", "01", "0-1,,0-2"}) {
        raw["hidden"] = bad;
        QVERIFY_THROWS_EXCEPTION(Error, poll::read_answer(q, raw));
    }
}

void TestPoll::headsQuestion()
{
    HeadQuestion h;
    h.stage = "attn_weights";
    h.prompt = "Which head looks at the previous token?";
    h.previous = {0.8, 0.85, 0.3, 0.82};
    h.best = 1;
    const poll::Question q = poll::from_heads(h);
    QCOMPARE(q.fields.size(), std::size_t{1});
    const poll::Field& f = q.fields[0];
    QCOMPARE(f.choices.size(), std::size_t{4});
    QVERIFY(poll::is_right(f, "1"));
    QVERIFY(poll::is_right(f, "3")); // 0.82 is within kHeadTie of 0.85, as check_head_pick says
    QCOMPARE(poll::is_right(f, "0"), check_head_pick(h, 0).right);
    QVERIFY(!poll::is_right(f, "2"));
    QVERIFY_THROWS_EXCEPTION(Error, poll::read_answer(q, {{"head", "4"}}));
}

void TestPoll::teacherChoice()
{
    const poll::Question q = poll::from_choices("Which is a view?", {"view", "contiguous", "reshape"}, 0);
    QCOMPARE(q.fields[0].choices.size(), std::size_t{3});
    QCOMPARE(poll::read_answer(q, {{"choice", "2"}}).at("choice"), std::string("2"));
    QVERIFY_THROWS_EXCEPTION(Error, poll::from_choices("", {"a", "b"}, 0));
    QVERIFY_THROWS_EXCEPTION(Error, poll::from_choices("Q", {"a"}, 0));
    QVERIFY_THROWS_EXCEPTION(Error, poll::from_choices("Q", {"a", " "}, 0));
    QVERIFY_THROWS_EXCEPTION(Error, poll::from_choices("Q", {"a", "b"}, 2));
}

void TestPoll::tallyRounds()
{
    poll::Tally t(poll::from_choices("Q", {"a", "b", "c"}, 1));
    QCOMPARE(t.round(), 1);
    t.record("dev-1", 1, {{"choice", "0"}});
    t.record("dev-2", 1, {{"choice", "0"}});
    t.record("dev-1", 1, {{"choice", "1"}}); // changed their mind: counted once, the latest
    QCOMPARE(t.answered(1), std::size_t{2});
    auto d = t.distribution(1, "choice");
    QCOMPARE(d.size(), std::size_t{2});
    QCOMPARE(d[0].count, 1);
    QVERIFY(d[0].right); // a tie goes to the right answer first
    QCOMPARE(t.right_share(1), 0.5);
    QVERIFY_THROWS_EXCEPTION(Error, t.record("dev-3", 2, {{"choice", "1"}})); // round 2 is not open
    t.next_round();
    QVERIFY_THROWS_EXCEPTION(Error, t.record("dev-3", 1, {{"choice", "1"}})); // round 1 is closed
    t.record("dev-2", 2, {{"choice", "1"}});
    QCOMPARE(t.answered(1), std::size_t{2}); // the first round stays as it was
    QCOMPARE(t.answered(2), std::size_t{1});
    QCOMPARE(t.right_share(2), 1.0);
    QVERIFY_THROWS_EXCEPTION(Error, t.answered(3));
    QVERIFY_THROWS_EXCEPTION(Error, t.record("dev-4", 2, {{"choice", "9"}}));
    QCOMPARE(t.answered(2), std::size_t{1}); // a refused answer counts nothing
}

void TestPoll::wrongAnswersInTheAppsWords()
{
    const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 16);
    poll::Tally t(poll::from_stage(*trace, question_for(*trace, "queries.heads")));
    const auto answer = [&](const std::string& device, const std::string& axis1) {
        t.record(device, 1,
                 {{"axis-0", "b"},
                  {"axis-1", axis1},
                  {"axis-2", "num_tokens"},
                  {"axis-3", "head_dim"},
                  {"contiguous", "no"},
                  {"shares-storage", "yes"}});
    };
    for (int i = 0; i < 5; ++i)
        answer("n" + std::to_string(i), "num_tokens");
    answer("r0", "num_heads");
    answer("r1", "12");
    answer("w0", "64");
    const auto said = t.wrong_said(1, "axis-1");
    QCOMPARE(said.size(), std::size_t{2});
    QCOMPARE(said[0], std::string("5 said num_tokens (16) where axis 1 is num_heads = 12"));
    QVERIFY2(QString::fromStdString(said[1]).startsWith("1 said 64 where axis 1 is"), said[1].c_str());
    QCOMPARE(t.distribution(1, "axis-1").size(), std::size_t{4});
}

QTEST_GUILESS_MAIN(TestPoll)
#include "test_poll.moc"
