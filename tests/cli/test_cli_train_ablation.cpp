// attention-lab-cli train --head-ablation: zeroing each head in turn reruns the layers after it (heads x (layers + 1)
// / 2 held-out passes), so by default a deep model trained briefly gets its shares and roles without it, told so in
// the JSON and the table; `all` measures it anyway and `none` never does, the shares the same either way.
#include "common/cli_runner.h"

#include <QJsonArray>
#include <QtTest>

namespace {
// 34 layers of one head: 17.5 passes of ablation, above the 16 a report always allows, after one step of training.
const QStringList kDeep{
    "train",     "--task", "previous-token", "--emb", "8",       "--heads", "1",      "--layers", "34",
    "--context", "8",      "--batch",        "4",     "--steps", "1",       "--seed", "3"};

QJsonObject firstSeed(const Result& r)
{
    return r.json()["variants"].toArray()[0].toObject()["seeds"].toArray()[0].toObject();
}
} // namespace

class TestCliTrainAblation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deep_and_brief_left_out();
    void all_measures_it_with_the_same_shares();
    void none_asked();
    void table_says_why();
    void bad_value_refused();
};

void TestCliTrainAblation::deep_and_brief_left_out()
{
    const Result r = cli(kDeep + QStringList{"--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject seed = firstSeed(r);
    QCOMPARE(seed["heads_ablated"].toBool(true), false);
    const QString why = seed["heads_not_ablated"].toString();
    QVERIFY2(why.contains("34 heads") && why.contains("about 18 passes") && why.contains("--head-ablation all"),
             qPrintable(why));
    const QJsonArray heads = seed["heads"].toArray();
    QCOMPARE(heads.size(), 34);
    for (const QJsonValue& h : heads) {
        QVERIFY(h.toObject()["ablated_loss"].isNull());
        QVERIFY(h.toObject()["ablated_accuracy"].isNull());
        QVERIFY(h.toObject()["previous"].toDouble(-1) >= 0.0); // the shares are there
    }
}

void TestCliTrainAblation::all_measures_it_with_the_same_shares()
{
    const Result left = cli(kDeep + QStringList{"--json"});
    const Result all = cli(kDeep + QStringList{"--head-ablation", "all", "--json"});
    QCOMPARE(all.code, 0);
    const QJsonObject seed = firstSeed(all);
    QCOMPARE(seed["heads_ablated"].toBool(false), true);
    QVERIFY(!seed.contains("heads_not_ablated"));
    const QJsonArray measured = seed["heads"].toArray(), shares = firstSeed(left)["heads"].toArray();
    QCOMPARE(measured.size(), shares.size());
    for (qsizetype i = 0; i < measured.size(); ++i) {
        const QJsonObject m = measured[i].toObject(), s = shares[i].toObject();
        QVERIFY(m["ablated_loss"].toDouble(-1) > 0.0);
        QVERIFY(m["ablated_accuracy"].toDouble(-1) >= 0.0 && m["ablated_accuracy"].toDouble(2) <= 1.0);
        for (const char* key : {"previous", "first", "self", "entropy", "role"})
            QCOMPARE(m[key], s[key]);
    }
    QCOMPARE(seed["val_loss"], firstSeed(left)["val_loss"]); // the same run
}

void TestCliTrainAblation::none_asked()
{
    // Two layers of two heads: 3 passes, which auto would make.
    const Result r = cli({"train", "--task", "induction", "--emb", "8", "--heads", "2", "--context", "12", "--batch",
                          "4", "--steps", "5", "--head-ablation", "none", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject seed = firstSeed(r);
    QCOMPARE(seed["heads_not_ablated"].toString(), QString("the heads were not ablated, as asked."));
    QVERIFY(seed["heads"].toArray()[0].toObject()["ablated_loss"].isNull());
    const Result automatic = cli({"train", "--task", "induction", "--emb", "8", "--heads", "2", "--context", "12",
                                  "--batch", "4", "--steps", "5", "--json"});
    QVERIFY(firstSeed(automatic)["heads"].toArray()[0].toObject()["ablated_loss"].toDouble(-1) > 0.0);
}

void TestCliTrainAblation::table_says_why()
{
    const Result r = cli(kDeep);
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("(the heads were not ablated: zeroing each of the 34 heads in turn"), qPrintable(r.out));
    // Each head's row ends in "-" for both ablated columns.
    QVERIFY2(r.out.contains(QRegularExpression(R"(\n\s+33\s+0\s+.*\s-\s+-\n)")), qPrintable(r.out));
    QVERIFY(r.out.contains("- where the report left the ablation out"));
}

void TestCliTrainAblation::bad_value_refused()
{
    const Result r = cli(kDeep + QStringList{"--head-ablation", "some"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("--head-ablation 'some' is not auto, all or none.") ||
                 r.err.contains("--head-ablation some is not auto, all or none."),
             qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestCliTrainAblation)
#include "test_cli_train_ablation.moc"
