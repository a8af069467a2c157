// attention-lab-cli pool: three students train the same experiment with --seed 0, 1 and 2, and the pooled table is
// train --seeds 3's, digit for digit in the text and number for number in the JSON; a seed handed in twice counts
// once; and every file pool cannot trust (another experiment, one seed with two results, a file that is not a
// train --json document, however broken) is refused in one sentence naming it, with nothing on stdout.
#include "common/cli_runner.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// A few hundred milliseconds a run; two variants so the table has rows to compare.
const QStringList kExperiment{"--task", "induction", "--emb", "8",       "--layers", "1",       "--context",
                              "12",     "--batch",   "4",     "--steps", "20",       "--heads", "1,2"};

bool write_file(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// The rows of a train or pool table, each cut after the "to 90% of best" column both print.
QStringList table_rows(const QString& out)
{
    const QStringList lines = out.split('\n');
    const int heading = static_cast<int>(lines.indexOf(QRegularExpression(QStringLiteral("^heads  kv_groups.*"))));
    if (heading < 0)
        return {};
    const int width = static_cast<int>(lines[heading].indexOf("to 90% of best") + QString("to 90% of best").size());
    QStringList rows;
    for (int i = heading + 1;
         i < lines.size() && QRegularExpression(QStringLiteral("^ +\\d")).match(lines[i]).hasMatch(); ++i)
        rows << lines[i].left(width);
    return rows;
}

// A seed's entry without the time it took on its machine, which no two runs share.
QJsonObject without_time(QJsonObject seed)
{
    seed.remove("ms_per_step");
    return seed;
}

} // namespace

class TestCliPool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void pooled_table_is_train_seeds_3();
    void pooled_json_is_train_seeds_3();
    void repeated_seed_counted_once();
    void diverged_seed_left_out_and_said();
    void another_experiment_refused_data();
    void another_experiment_refused();
    void conflicting_seed_names_both_files();
    void hostile_files_refused_data();
    void hostile_files_refused();
    void mutated_files_never_crash();
    void folders_refused();

private:
    Result pool(const QStringList& args) { return cli(QStringList{"pool"} + args); }
    void expect_refusal(const Result& r, const QString& says);

    QTemporaryDir dir_;
    QString class_;       // the three students' files
    QByteArray student0_; // seed 0's document
    Result together_, together_json_;
};

void TestCliPool::initTestCase()
{
    QVERIFY(dir_.isValid());
    class_ = dir_.filePath("class");
    QVERIFY(QDir().mkpath(class_));
    for (int seed = 0; seed < 3; ++seed) {
        const Result r =
            cli(QStringList{"train"} + kExperiment + QStringList{"--seed", QString::number(seed), "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY(write_file(class_ + QStringLiteral("/student-%1.json").arg(seed), r.out.toUtf8()));
        if (seed == 0)
            student0_ = r.out.toUtf8();
    }
    together_ = cli(QStringList{"train"} + kExperiment + QStringList{"--seeds", "3"});
    together_json_ = cli(QStringList{"train"} + kExperiment + QStringList{"--seeds", "3", "--json"});
    QCOMPARE(together_.code, 0);
    QCOMPARE(together_json_.code, 0);
}

// The real check: three laptops' seeds pooled give the table one sweep of the same seeds prints.
void TestCliPool::pooled_table_is_train_seeds_3()
{
    const Result r = pool({class_});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    const QStringList pooled = table_rows(r.out), trained = table_rows(together_.out);
    QCOMPARE(pooled.size(), 2);
    QCOMPARE(pooled, trained);
    QVERIFY2(r.out.contains("3 seed(s) (0-2) from 3 file(s)"), qPrintable(r.out));
    for (const QString& line : r.out.split('\n').filter(QRegularExpression(QStringLiteral("^ +[12] "))))
        QVERIFY2(line.endsWith("      3"), qPrintable(line)); // the seeds column
    QVERIFY(r.out.contains("90% of that run's own best accuracy (not 90% accuracy)"));
}

void TestCliPool::pooled_json_is_train_seeds_3()
{
    const Result r =
        pool({class_ + "/student-2.json", class_ + "/student-0.json", class_ + "/student-1.json", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject pooled = r.json(), trained = together_json_.json();
    for (const char* key : {"task", "vocab_size", "context_length", "emb_dim", "n_layers", "steps", "batch", "lr",
                            "weight_decay", "seeds"})
        QCOMPARE(pooled[key], trained[key]);
    QCOMPARE(pooled["files"].toInt(), 3);
    const QJsonArray pv = pooled["variants"].toArray(), tv = trained["variants"].toArray();
    QCOMPARE(pv.size(), 2);
    QCOMPARE(pv.size(), tv.size());
    for (int i = 0; i < pv.size(); ++i) {
        const QJsonObject p = pv[i].toObject(), t = tv[i].toObject();
        // Exactly equal: the same doubles summed in the same order (by seed), as train does.
        for (const char* key :
             {"n_heads", "kv_groups", "head_dim", "kv_bytes_per_token", "val_loss_mean", "val_loss_std",
              "val_accuracy_mean", "val_accuracy_std", "seeds_finished", "steps_to_90_mean", "seeds_diverged"})
            QVERIFY2(p[key] == t[key], key);
        QVERIFY(p["val_loss_std"].toDouble() > 0.0); // three seeds differ: a real spread, not 0
        const QJsonArray ps = p["seeds"].toArray(), ts = t["seeds"].toArray();
        QCOMPARE(ps.size(), 3);
        for (int k = 0; k < 3; ++k) // in seed order, each the run the sweep made, curve and heads included
            QCOMPARE(without_time(ps[k].toObject()), without_time(ts[k].toObject()));
    }
}

// The same file twice (a student who handed in twice), and the pooled document itself pooled again: each seed
// once, the same numbers.
void TestCliPool::repeated_seed_counted_once()
{
    QTemporaryDir again;
    const Result first = pool({class_, "--json"});
    QCOMPARE(first.code, 0);
    QVERIFY(write_file(again.filePath("pooled.json"), first.out.toUtf8()));
    QVERIFY(write_file(again.filePath("student-0-again.json"), student0_));
    const Result r = pool({again.path(), class_, "--json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.json()["repeated_seeds"].toInt(), 4); // seed 0 again, then the class's 3 that pooled.json holds
    QCOMPARE(r.json()["variants"], first.json()["variants"]);
    const Result text = pool({class_ + "/student-1.json", class_ + "/student-1.json"});
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("1 seed(s) (1) from 2 file(s); 1 repeated seed(s) counted once"), qPrintable(text.out));
    QVERIFY(table_rows(text.out).first().contains("(1 seed)"));
}

// A seed that diverged on a student's laptop: left out of the means, as train leaves it, and said under the table;
// when every seed of a variant diverged, the row says how the first did.
void TestCliPool::diverged_seed_left_out_and_said()
{
    const Result diverging = cli(QStringList{"train"} + kExperiment + QStringList{"--lr", "1e30", "--json"});
    QCOMPARE(diverging.code, 0);
    const QJsonObject wild =
        diverging.json()["variants"].toArray().at(0).toObject()["seeds"].toArray().at(0).toObject();
    QVERIFY(wild["diverged"].toString().startsWith("diverged at step "));
    // Student 2's file with seed 2 diverged in every variant (the settings stay the class's).
    QJsonObject doc = QJsonDocument::fromJson(student0_).object();
    QJsonArray variants = doc["variants"].toArray();
    for (int i = 0; i < variants.size(); ++i) {
        QJsonObject v = variants[i].toObject(), seed = wild;
        seed["seed"] = 2;
        v["seeds"] = QJsonArray{seed};
        variants[i] = v;
    }
    doc["variants"] = variants;
    QTemporaryDir other;
    const QString diverged = other.filePath("diverged-2.json");
    QVERIFY(write_file(diverged, QJsonDocument(doc).toJson()));

    const Result pooled = pool({class_ + "/student-0.json", class_ + "/student-1.json", diverged});
    const Result two = pool({class_ + "/student-0.json", class_ + "/student-1.json"});
    QCOMPARE(pooled.code, 0);
    QCOMPARE(two.code, 0);
    QCOMPARE(table_rows(pooled.out), table_rows(two.out)); // the means of seeds 0 and 1 alone
    QVERIFY2(
        pooled.out.contains("(2 head(s), seed 2: " + wild["diverged"].toString() + "; the row is the other seeds')"),
        qPrintable(pooled.out));
    const Result json = pool({class_ + "/student-0.json", class_ + "/student-1.json", diverged, "--json"});
    const QJsonObject row = json.json()["variants"].toArray().at(0).toObject();
    QCOMPARE(row["seeds_diverged"].toInt(), 1);
    QCOMPARE(row["seeds_finished"].toInt(), 2);
    QCOMPARE(row["seeds"].toArray().size(), 3);

    const Result alone = pool({diverged});
    QCOMPARE(alone.code, 0);
    // Every seed diverged: each row says how instead of a mean of nothing.
    const QStringList rows = alone.out.split('\n').filter(QRegularExpression(QStringLiteral("^ +[12] ")));
    QCOMPARE(rows.size(), 2);
    for (const QString& row : rows)
        QVERIFY2(row.endsWith(wild["diverged"].toString()) && !row.contains("+-"), qPrintable(row));
}

void TestCliPool::expect_refusal(const Result& r, const QString& says)
{
    const QString what = QString::number(r.code) + ": " + r.err + r.out.left(200);
    QVERIFY2(r.code == 1, qPrintable(what));
    QVERIFY2(r.out.isEmpty(), qPrintable(what));
    QVERIFY2(r.err.count('\n') == 1 && r.err.trimmed().endsWith('.'), qPrintable(what));
    QVERIFY2(r.err.contains(says), qPrintable(what + "\nexpected: " + says));
}

void TestCliPool::another_experiment_refused_data()
{
    QTest::addColumn<QStringList>("change");
    QTest::addColumn<QString>("says");
    QTest::newRow("steps") << QStringList{"--steps", "21"} << "was trained with --steps 21 and FIRST with --steps 20";
    QTest::newRow("context") << QStringList{"--context", "13"}
                             << "was trained with --context 13 and FIRST with --context 12";
    QTest::newRow("lr") << QStringList{"--lr", "0.01"} << "was trained with --lr 0.01 and FIRST with --lr 0.003";
    QTest::newRow("window") << QStringList{"--window", "4"} << "was trained with --window 4 and FIRST without --window";
    QTest::newRow("task") << QStringList{"--task", "previous-token"}
                          << "was trained with --task previous-token and FIRST with --task induction";
    QTest::newRow("heads") << QStringList{"--heads", "1,4"}
                           << "is another experiment than FIRST: its variant 2 is 4 head(s), not 2 head(s)";
    QTest::newRow("fewer variants") << QStringList{"--heads", "1"}
                                    << "is another experiment than FIRST: it has 1 variants, not 2";
    QTest::newRow("kv groups") << QStringList{"--heads", "1,2", "--kv-groups", "1"}
                               << "is another experiment than FIRST: its variant 2 is 2 head(s) in 1 key/value "
                                  "group(s), not 2 head(s)";
}

void TestCliPool::another_experiment_refused()
{
    QFETCH(QStringList, change);
    QFETCH(QString, says);
    QStringList args = kExperiment;
    for (int i = 0; i < change.size(); i += 2) {
        const int at = static_cast<int>(args.indexOf(change[i]));
        if (at >= 0)
            args[at + 1] = change[i + 1];
        else
            args << change[i] << change[i + 1];
    }
    const Result trained = cli(QStringList{"train"} + args + QStringList{"--seed", "5", "--json"});
    QCOMPARE(trained.code, 0);
    QTemporaryDir other;
    QVERIFY(write_file(other.filePath("z-other.json"), trained.out.toUtf8()));
    const Result r = pool({class_, other.filePath("z-other.json")});
    expect_refusal(r, "z-other.json' " + says.replace("FIRST", "'" + class_ + "/student-0.json'"));
}

// One seed, two results: an edited file (or another build's) is named with the one it contradicts.
void TestCliPool::conflicting_seed_names_both_files()
{
    QJsonObject doc = QJsonDocument::fromJson(student0_).object();
    QJsonArray variants = doc["variants"].toArray();
    QJsonObject v = variants[1].toObject();
    QJsonArray seeds = v["seeds"].toArray();
    QJsonObject s = seeds[0].toObject();
    s["val_accuracy"] = s["val_accuracy"].toDouble() + 0.01;
    seeds[0] = s;
    v["seeds"] = seeds;
    variants[1] = v;
    doc["variants"] = variants;
    QTemporaryDir other;
    QVERIFY(write_file(other.filePath("better.json"), QJsonDocument(doc).toJson()));
    const Result r = pool({class_, other.filePath("better.json")});
    expect_refusal(r, "'" + class_ + "/student-0.json' and '" + other.filePath("better.json") +
                          "' both hold seed 0 of 2 head(s), with different results");
}

void TestCliPool::hostile_files_refused_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("says");
    const QByteArray good = student0_;
    QTest::newRow("0 bytes") << QByteArray() << "the file is empty (0 bytes)";
    for (int cut : {1, 7, 100, static_cast<int>(good.size() / 2), static_cast<int>(good.size() - 3)})
        QTest::newRow(qPrintable(QStringLiteral("cut at %1").arg(cut))) << good.left(cut) << "does not parse as JSON";
    QTest::newRow("not JSON") << QByteArray("task: induction\n") << "does not parse as JSON";
    QTest::newRow("NUL bytes") << QByteArray(300, '\0') << "does not parse as JSON";
    QTest::newRow("not UTF-8") << QByteArray(good).replace("\"induction\"", "\"induc\xff\xfe\"") << "does not parse";
    QTest::newRow("an array") << QByteArray("[1, 2, 3]") << "holds JSON that is not an object";
    QTest::newRow("null") << QByteArray("null") << "holds JSON that is not an object";
    QTest::newRow("another document") << QByteArray(R"({"n_layer": 12, "n_head": 12})") << "has no \"task\"";
    QTest::newRow("deep nesting") << QByteArray(200000, '[') << "nests deeper than 16 levels";
    QTest::newRow("deep inside a curve") << QByteArray(good).replace("\"curve\": [", "\"curve\": [" +
                                                                                         QByteArray(40, '[') +
                                                                                         QByteArray(40, ']') + ",")
                                         << "nests deeper than 16 levels";
    QTest::newRow("number beyond a double")
        << QByteArray(good).replace("\"lr\": 0.003", "\"lr\": 1e999") << "too large";
    QTest::newRow("huge whole number") << QByteArray(good).replace("\"steps\": 20",
                                                                   "\"steps\": 99999999999999999999999")
                                       << "\"steps\" is 9.999999999999999e+22, not a whole number from 1 to 10000000";
    QTest::newRow("NaN raw") << QByteArray(good).replace("\"lr\": ", "\"lr\": NaN, \"x\": ") << "does not parse";
    QTest::newRow("NaN string") << QByteArray(good).replace("\"lr\": ", "\"lr\": \"NaN\", \"x\": ")
                                << "\"lr\" is \"NaN\", not a number";
    QTest::newRow("heads as text") << QByteArray(good).replace("\"n_heads\": 1", "\"n_heads\": \"1\"")
                                   << "variant 1's \"n_heads\" is \"1\"";
    QTest::newRow("negative seed") << QByteArray(good).replace("\"seed\": 0", "\"seed\": -3")
                                   << "\"seed\" is -3, not a whole number from 0";
    QTest::newRow("accuracy above 1") << QByteArray(good).replace("\"val_accuracy\": 0.", "\"val_accuracy\": 7.")
                                      << "\"val_accuracy\" is 7.";
    QTest::newRow("variants not a list") << QByteArray(good).replace("\"variants\": [", "\"variants\": 5, \"v\": [")
                                         << "its \"variants\" is not a list of 1 to 1000 variants";
    QTest::newRow("no seeds") << QByteArray(R"({"task": "induction", "vocab_size": 16, "context_length": 12,
        "emb_dim": 8, "n_layers": 1, "steps": 20, "batch": 4, "lr": 0.003, "weight_decay": 0.01, "variants": [
        {"n_heads": 2, "kv_groups": 2, "head_dim": 4, "kv_bytes_per_token": 64, "seeds": []}]})")
                              << "variant 1's \"seeds\" is not a list of seeds";
    QTest::newRow("shape that does not fit")
        << QByteArray(good).replace("\"head_dim\": 8", "\"head_dim\": 4") << "do not fit emb 8 and 1 layers";
}

// Each broken file among the good ones: named, exit 1, nothing printed, never a crash.
void TestCliPool::hostile_files_refused()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, says);
    QVERIFY(bytes != student0_);
    QTemporaryDir other;
    const QString path = other.filePath("broken.json");
    QVERIFY(write_file(path, bytes));
    const Result r = pool({class_, path});
    expect_refusal(r, "'" + path + "' is not a train --json document: ");
    expect_refusal(r, says);
}

// A few hundred files each a good document with a few bytes changed (a seeded generator: the same files every
// run): each is pooled or refused in one sentence, never a crash, a hang or a half-printed table.
void TestCliPool::mutated_files_never_crash()
{
    QRandomGenerator random(45);
    QTemporaryDir other;
    const QString path = other.filePath("mutant.json");
    int pooled = 0, refused = 0;
    for (int i = 0; i < 300; ++i) {
        QByteArray bytes = student0_;
        for (int k = 1 + static_cast<int>(random.bounded(4)); k > 0; --k) {
            const int at = static_cast<int>(random.bounded(static_cast<quint32>(bytes.size())));
            static const char kBytes[] = "{}[]\":,.-+eE019 \\nNaI\x00\xff"; // JSON's syntax, a NUL, not UTF-8
            bytes[at] = kBytes[random.bounded(static_cast<quint32>(sizeof kBytes - 1))];
        }
        QVERIFY(write_file(path, bytes));
        const Result r = pool({path});
        const QString what = QStringLiteral("mutant %1 -> %2: %3").arg(i).arg(r.code).arg(r.err);
        QVERIFY2(r.code == 0 || r.code == 1, qPrintable(what));
        if (r.code == 0) {
            QVERIFY2(r.err.isEmpty() && table_rows(r.out).size() == 2, qPrintable(what + r.out));
            ++pooled;
        } else {
            QVERIFY2(r.out.isEmpty() && r.err.count('\n') == 1 && r.err.contains("mutant.json"), qPrintable(what));
            ++refused;
        }
    }
    QVERIFY2(pooled > 0 && refused > 0, qPrintable(QStringLiteral("%1 pooled, %2 refused").arg(pooled).arg(refused)));
}

void TestCliPool::folders_refused()
{
    QTemporaryDir empty;
    expect_refusal(pool({empty.path()}), "'" + empty.path() + "' holds no .json files");
    expect_refusal(pool({empty.filePath("missing.json")}), "missing.json' does not exist");
    QTemporaryDir crowd; // 501 files: refused by their count before any is read
    for (int i = 0; i <= 500; ++i)
        QVERIFY(write_file(crowd.filePath(QStringLiteral("s%1.json").arg(i)), {}));
    expect_refusal(pool({crowd.path()}), "holds more than 500 .json files");
    QTemporaryDir big; // a 65 MiB file is refused by its size, read no further than 64 MiB
    QFile huge(big.filePath("video.json"));
    QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(qint64{65} << 20));
    huge.close();
    expect_refusal(pool({big.path()}), "video.json' is larger than 64 MiB");
    const Result none = pool({});
    QCOMPARE(none.code, 2);
    QVERIFY(none.err.contains("pool needs the students' train --json files"));
}

QTEST_GUILESS_MAIN(TestCliPool)
#include "test_cli_pool.moc"
