// attention-lab-cli train: the table as JSON, every head measured and ablated (JSON and text), the runs the same for
// the same seeds, --save a model that load_gpt_model and `run --model` open, --dump-run a replayable file, and every
// bad setting refused with one sentence and exit 1 before anything trains or is written.
#include "common/cli_runner.h"
#include "common/scratch_fs.h"
#include "gpt/gpt_model.h"
#include "io/safetensors.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <cmath>

namespace {
// Small enough to finish in well under a second per run.
const QStringList kSmall{"--task",    "induction", "--emb",   "8", "--layers", "1",
                         "--context", "12",        "--batch", "4", "--steps",  "20"};
} // namespace

class TestCliTrain : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void json_table();
    void one_seed_has_no_spread();
    void heads_in_json();
    void heads_table_printed();
    void induction_heads_need_two_layers();
    void same_seed_same_numbers();
    void same_seed_same_file();
    void save_opens_as_model();
    void task_model_reads_letters();
    void dump_run_holds_the_run();
    void diverged_run_said_as_such();
    void refusals_data();
    void refusals();
    void unwritable_target_refused_before_training_data();
    void unwritable_target_refused_before_training();
    void long_sweep_stated_with_progress();
    void long_context_at_batch_1_not_refused();
};

void TestCliTrain::json_table()
{
    const Result r = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "1,2", "--seeds", "2", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = r.json();
    QCOMPARE(o["task"].toString(), QString("induction"));
    const QJsonArray variants = o["variants"].toArray();
    QCOMPARE(variants.size(), 2);
    for (int i = 0; i < 2; ++i) {
        const QJsonObject v = variants[i].toObject();
        QCOMPARE(v["n_heads"].toInt(), i + 1);
        QCOMPARE(v["head_dim"].toInt(), 8 / (i + 1));
        QCOMPARE(v["seeds"].toArray().size(), 2);
        const double acc = v["val_accuracy_mean"].toDouble();
        QVERIFY(acc >= 0.0 && acc <= 1.0);
        QVERIFY(v["val_loss_mean"].toDouble() > 0.0);
        QVERIFY(v["val_loss_std"].toDouble() >= 0.0);
        QVERIFY(v["ms_per_step_mean"].toDouble() > 0.0);
        QVERIFY(v["steps_to_90_mean"].toDouble() >= 1.0);
    }
    QVERIFY(o["how"].toString().contains("held-out"));
    QVERIFY(o["how"].toString().contains("90% of that run's own best accuracy (not 90% accuracy)"));
}

// One seed has no spread: the JSON's std is null, not 0, the table says "(1 seed)" where "+- 0.000" stood, and the
// saved model's metadata leaves the spread empty; the column is named for what it is, 90% of the run's own best.
void TestCliTrain::one_seed_has_no_spread()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("one.safetensors");
    const Result j = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--json"});
    QCOMPARE(j.code, 0);
    const QJsonObject v = j.json()["variants"].toArray().at(0).toObject();
    QVERIFY(v.contains("val_loss_std") && v["val_loss_std"].isNull() && v["val_accuracy_std"].isNull());
    QCOMPARE(v["seeds_finished"].toInt(), 1);
    const Result t = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--save", path});
    QCOMPARE(t.code, 0);
    QVERIFY2(t.out.contains("held-out accuracy  to 90% of best  ms/step"), qPrintable(t.out));
    QVERIFY2(t.out.count(" (1 seed)") == 2 && !t.out.contains("+- 0.000"), qPrintable(t.out));
    const attnlab::SafetensorsFile saved = attnlab::read_safetensors(path.toStdString());
    QCOMPARE(saved.meta("val_loss_std"), std::string());
    QVERIFY(!saved.meta("val_loss_mean").empty());
    const Result two = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--seeds", "2"});
    QVERIFY2(two.out.count(" +- ") >= 2 && !two.out.contains("(1 seed)"), qPrintable(two.out));
}

void TestCliTrain::heads_in_json()
{
    const Result r = cli({"train", "--task", "induction", "--emb", "8", "--layers", "2", "--context", "12", "--batch",
                          "4", "--steps", "20", "--heads", "1,4", "--seeds", "2", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = r.json();
    QVERIFY(o["heads_how"].toString().contains("previous-token head when at least 0.5"));
    QVERIFY(o["heads_how"].toString().contains("out_proj"));
    const QStringList roles{"previous-token", "induction", "first-token", "self", "none"};
    for (const QJsonValue variant : o["variants"].toArray()) {
        const int n = variant["n_heads"].toInt();
        for (const QJsonValue seed : variant["seeds"].toArray()) {
            const QJsonArray heads = seed["heads"].toArray();
            QCOMPARE(heads.size(), 2 * n);
            for (int i = 0; i < heads.size(); ++i) {
                const QJsonObject h = heads[i].toObject();
                QCOMPARE(h["layer"].toInt(), i / n);
                QCOMPARE(h["head"].toInt(), i % n);
                for (const char* share : {"previous", "first", "self"})
                    QVERIFY2(h[share].toDouble() >= 0.0 && h[share].toDouble() <= 1.0, share);
                // Twelve random tokens of 16 repeat by chance, and every sequence holds a copied segment.
                QVERIFY(h["induction_positions"].toInt() > 0);
                QVERIFY(h["induction"].toDouble() >= 0.0 && h["induction"].toDouble() <= 1.0);
                QVERIFY(h["entropy"].toDouble() >= 0.0 && h["entropy"].toDouble() <= std::log(12.0));
                QVERIFY2(roles.contains(h["role"].toString()), qPrintable(h["role"].toString()));
                QVERIFY(h["ablated_loss"].toDouble() > 0.0);
                QVERIFY(h["ablated_accuracy"].toDouble() >= 0.0 && h["ablated_accuracy"].toDouble() <= 1.0);
            }
        }
    }
}

void TestCliTrain::heads_table_printed()
{
    const Result r = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2,4", "--seeds", "2"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.count("layer  head   prev  first   self  induction  entropy  role") == 2, qPrintable(r.out));
    QVERIFY(r.out.contains("2 head(s), seed 0 (--json has every seed)"));
    QVERIFY(r.out.contains("4 head(s), seed 0"));
    QVERIFY(r.out.contains("previous-token head when at least 0.5"));
    // One layer: two rows under the first table, four under the second.
    const QStringList lines = r.out.split('\n');
    const auto rows_after = [&](int header) {
        int n = 0;
        for (int i = header + 1; i < lines.size() && lines[i].startsWith("      0 "); ++i)
            ++n;
        return n;
    };
    QList<int> counts;
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains("layer  head   prev"))
            counts << rows_after(i);
    QCOMPARE(counts, (QList<int>{2, 4}));
}

// A short run of the picture the full settings show (emb 32, context 32, 2,000 steps): with two layers a layer-0
// head learns the previous token, the model relies on it, and layer-1 heads attend after the earlier copy; one
// layer cannot do it. Half the width and context, 1,500 steps: a few seconds, with margins seen over seeds 0-2.
void TestCliTrain::induction_heads_need_two_layers()
{
    const auto run = [](const char* layers) {
        const Result r = cli({"train", "--task", "induction", "--context", "16", "--emb", "16", "--batch", "32",
                              "--steps", "1500", "--heads", "2", "--seed", "0", "--layers", layers, "--json"});
        if (r.code != 0)
            qFatal("train failed: %s", qPrintable(r.err));
        return r.json()["variants"].toArray()[0].toObject()["seeds"].toArray()[0].toObject();
    };
    const QJsonObject two = run("2");
    const double accuracy = two["val_accuracy"].toDouble();
    QVERIFY2(accuracy >= 0.7, qPrintable(QString::number(accuracy)));
    double previous = 0.0, induction = 0.0, cost = 0.0;
    for (const QJsonValue h : two["heads"].toArray()) {
        if (h["layer"].toInt() == 0) {
            previous = std::max(previous, h["previous"].toDouble());
            cost = std::max(cost, accuracy - h["ablated_accuracy"].toDouble());
        } else if (h["role"].toString() == "induction") {
            induction = std::max(induction, h["induction"].toDouble());
        }
    }
    QVERIFY2(previous >= 0.5, qPrintable(QString::number(previous)));
    QVERIFY2(cost >= 0.2, qPrintable(QString::number(cost)));
    QVERIFY2(induction >= 0.7, qPrintable(QString::number(induction)));

    const QJsonObject one = run("1");
    QVERIFY2(one["val_accuracy"].toDouble() < 0.4, qPrintable(QString::number(one["val_accuracy"].toDouble())));
    for (const QJsonValue h : one["heads"].toArray())
        QVERIFY(h["induction"].toDouble() < 0.5);
}

void TestCliTrain::same_seed_same_numbers()
{
    const Result a = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--seed", "5", "--json"});
    const Result b = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--seed", "5", "--json"});
    QCOMPARE(a.code, 0);
    const auto loss = [](const Result& r) {
        return r.json()["variants"].toArray()[0].toObject()["seeds"].toArray()[0].toObject()["val_loss"].toDouble();
    };
    QCOMPARE(loss(a), loss(b));
}

// A saved model is a function of its settings and seed, byte for byte: no timing in its metadata, so the shipped
// resources/models/induction-gpt-h4 is exactly what its command (resources/models/README.md) makes on this machine.
void TestCliTrain::same_seed_same_file()
{
    QTemporaryDir dir;
    QByteArray bytes[2];
    for (int i = 0; i < 2; ++i) {
        const QString path = dir.filePath(QStringLiteral("m%1.safetensors").arg(i));
        QCOMPARE(cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--seed", "3", "--save", path}).code,
                 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        bytes[i] = file.readAll();
    }
    QVERIFY(!bytes[0].isEmpty());
    QVERIFY(bytes[0] == bytes[1]);
    QVERIFY(!bytes[0].contains("ms_per_step"));
}

void TestCliTrain::save_opens_as_model()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("verdict-small.safetensors");
    const Result r = cli({"train", "--task", "the-verdict", "--emb", "8", "--context", "8", "--heads", "2", "--steps",
                          "3", "--seeds", "2", "--save", path});
    QCOMPARE(r.code, 0);
    const attnlab::GptModel m = attnlab::load_gpt_model(path.toStdString());
    QCOMPARE(m.settings.vocab_size, 1132);
    QCOMPARE(m.settings.emb_dim, 8);
    QCOMPARE(m.settings.n_heads, 2);
    QCOMPARE(m.meta("task"), std::string("the-verdict"));
    QVERIFY(!m.meta("val_loss_mean").empty() && !m.meta("val_loss_std").empty());
    const Result run = cli(
        {"run", "--model", path, "--layer", "1", "--text", "I had always", "--dump", dir.filePath("dump.safetensors")});
    QVERIFY2(run.code == 0, qPrintable(run.err));
}

// A model saved from a synthetic task reads that task's letters: run shows it a sequence of its task (induction:
// a run and its copy) by default, takes letters in --text, and refuses a letter it has no token for in one sentence.
void TestCliTrain::task_model_reads_letters()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("induction.safetensors");
    QCOMPARE(cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--save", path}).code, 0);
    const QString dump = dir.filePath("dump.safetensors");
    const Result byDefault = cli({"run", "--model", path, "--dump", dump});
    QVERIFY2(byDefault.code == 0, qPrintable(byDefault.err));
    const attnlab::SafetensorsFile f = attnlab::read_safetensors(dump.toStdString());
    const QString text = QString::fromStdString(f.meta("text"));
    QCOMPARE(text.split(' ').size(), 12); // the whole context of the task
    for (const QString& token : text.split(' '))
        QVERIFY2(token.size() == 1 && token[0] >= 'A' && token[0] <= 'P', qPrintable(text));
    QCOMPARE(f.meta("token_ids").empty(), false);
    const Result letters = cli({"run", "--model", path, "--layer", "0", "--text", "ABCABC", "--dump", dump});
    QVERIFY2(letters.code == 0, qPrintable(letters.err));
    QCOMPARE(attnlab::read_safetensors(dump.toStdString()).meta("token_ids"), std::string("0,1,2,0,1,2"));
    const Result bad = cli({"run", "--model", path, "--text", "A B Q", "--dump", dir.filePath("no.safetensors")});
    QCOMPARE(bad.code, 1);
    QVERIFY2(bad.err.contains("'Q'") && bad.err.contains("A to P"), qPrintable(bad.err));
    QCOMPARE(bad.err.trimmed().count('\n'), 0);
    QVERIFY(!QFile::exists(dir.filePath("no.safetensors")));
}

void TestCliTrain::dump_run_holds_the_run()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("run.safetensors");
    const Result r =
        cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--seed", "1", "--dump-run", path});
    QCOMPARE(r.code, 0);
    attnlab::SafetensorsOptions keep_ints;
    keep_ints.skip_non_float = true;
    const attnlab::SafetensorsFile f = attnlab::read_safetensors(path.toStdString(), keep_ints);
    QCOMPARE(f.dtypes.at("inputs"), std::string("I64"));
    QCOMPARE(f.dtypes.at("targets"), std::string("I64"));
    QCOMPARE(f.find("loss")->numel(), 20);
    QCOMPARE(f.find("init.tok_emb.weight")->shape(), (attnlab::Shape{16, 8}));
    QVERIFY(f.find("init.trf_blocks.0.att.W_query.weight"));
    QVERIFY(f.find("init.out_head.weight"));
    QCOMPARE(f.meta("seed"), std::string("1"));
}

// A run whose loss overflows is said to have diverged, where and at what loss, with a rate to try; no number is nan,
// in the table or the JSON; a --save of it is refused after the table is printed, and writes nothing.
void TestCliTrain::diverged_run_said_as_such()
{
    const QStringList diverging = QStringList{"train"} + kSmall + QStringList{"--heads", "2", "--lr", "1e30"};
    const Result text = cli(diverging);
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("diverged at step ") && text.out.contains("try a learning rate of 0.003 or lower"),
             qPrintable(text.out));
    QVERIFY2(!text.out.contains("nan", Qt::CaseInsensitive) && !text.out.contains("inf"), qPrintable(text.out));

    const Result json = cli(diverging + QStringList{"--json"});
    QCOMPARE(json.code, 0);
    QVERIFY2(!json.out.contains("nan", Qt::CaseInsensitive) && !json.out.contains("null"), qPrintable(json.out));
    const QJsonObject variant = json_of(json)["variants"].toArray().at(0).toObject();
    QVERIFY(variant["diverged"].toString().startsWith("diverged at step "));
    QVERIFY(!variant.contains("val_loss_mean"));
    QCOMPARE(variant["seeds_diverged"].toInt(), 1);
    const QJsonObject seed = variant["seeds"].toArray().at(0).toObject();
    QVERIFY(seed["diverged_at_step"].toInt() >= 1);
    QVERIFY(std::isfinite(seed["loss_before"].toDouble()) && seed["loss_before"].toDouble() > 0);
    QCOMPARE(seed["advised_lr"].toDouble(), 3e-3);

    QTemporaryDir dir;
    const QString path = dir.filePath("model.safetensors");
    const Result saved = cli(diverging + QStringList{"--save", path});
    QCOMPARE(saved.code, 1);
    QVERIFY2(saved.err.contains("so no model was saved to"), qPrintable(saved.err));
    QVERIFY2(saved.out.contains("diverged at step "), qPrintable(saved.out)); // the table came first
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
}

void TestCliTrain::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("d_out-not-divisible") << QStringList{"--emb", "32", "--heads", "5"} << "not divisible";
    QTest::newRow("context-too-long") << QStringList{"--task", "the-verdict", "--context", "5000"} << "--context";
    QTest::newRow("context-too-short") << QStringList{"--context", "8"} << "--context";
    QTest::newRow("zero-steps") << QStringList{"--steps", "0"} << "--steps";
    QTest::newRow("vocab-too-small") << QStringList{"--vocab", "1"} << "--vocab";
    QTest::newRow("verdict-vocab") << QStringList{"--task", "the-verdict", "--vocab", "16"} << "1132";
    QTest::newRow("unknown-task") << QStringList{"--task", "copying"} << "previous-token";
    QTest::newRow("recall-too-few-keys") << QStringList{"--task", "associative-recall", "--vocab", "8"}
                                         << "has only 4 keys; give a --vocab of at least 16.";
    QTest::newRow("too-big-for-memory") << QStringList{"--context", "4096", "--batch", "512"} << "GiB";
    QTest::newRow("zero-batch") << QStringList{"--batch", "0"} << "--batch";
    QTest::newRow("negative-lr") << QStringList{"--lr", "-1"} << "--lr";
    QTest::newRow("lr-not-a-number") << QStringList{"--lr", "fast"} << "--lr";
    QTest::newRow("save-into-missing-folder")
        << QStringList{"--heads", "2", "--save", "/nonexistent-folder/m.safetensors"} << "/nonexistent-folder";
    QTest::newRow("save-onto-folder") << QStringList{"--heads", "2", "--save", "/tmp"} << "/tmp";
    QTest::newRow("save-two-variants") << QStringList{"--heads", "1,2", "--save", "m.safetensors"} << "--save";
    QTest::newRow("heads-repeated") << QStringList{"--heads", "4,2,4"} << "num_heads 4 is listed twice";
    QTest::newRow("heads-trailing-comma") << QStringList{"--heads", "4,"} << "ends without a number";
    QTest::newRow("heads-leading-comma") << QStringList{"--heads", ",4"} << "--heads";
    QTest::newRow("save-and-dump-one-path")
        << QStringList{"--heads", "2", "--save", "same.safetensors", "--dump-run", "same.safetensors"}
        << "both name same.safetensors";
    QTest::newRow("save-and-dump-one-file-two-names")
        << QStringList{"--heads", "2", "--save", "same.safetensors", "--dump-run", "./same.safetensors"}
        << "give each its own file";
    QTest::newRow("dump-two-seeds") << QStringList{"--heads", "2", "--seeds", "2", "--dump-run", "r.safetensors"}
                                    << "--dump-run";
    // The work bounded before it starts (each of these trained for hours, or without end, before).
    QTest::newRow("too-many-runs") << QStringList{"--heads", "1,2,4,8,16,32", "--seeds", "200"}
                                   << "1200 runs (--heads values x --kv-groups values x --seeds), more than the 1000";
    QTest::newRow("too-long-for-an-hour")
        << QStringList{"--layers", "8", "--steps", "10000000"} << "more than the 1 h train allows; give fewer --steps";
    QTest::newRow("dump-beyond-its-bound")
        << QStringList{"--heads", "2", "--seed", "1", "--steps", "10000000", "--dump-run", "r.safetensors"}
        << "a run dump may hold; give at most --steps 32768";
    QTest::newRow("memory-budget") << QStringList{"--max-memory", "30M"} << "memory budget (--max-memory)";
    QTest::newRow("beyond-the-machine")
        << QStringList{"--task", "previous-token", "--emb", "16384",   "--layers", "8",       "--context",
                       "2",      "--batch",        "1",     "--vocab", "2",        "--heads", "1"}
        << "of memory this machine has, so nothing was trained; most of it is the weights";
}

void TestCliTrain::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    QStringList full{"train", "--task", "induction", "--steps", "100000"};
    for (int i = 0; i + 1 < args.size(); i += 2) {
        const int at = full.indexOf(args[i]);
        if (at >= 0)
            full.removeAt(at), full.removeAt(at);
        full << args[i] << args[i + 1];
    }
    QElapsedTimer t;
    t.start();
    const Result r = cli(full);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(says) && r.err.count('\n') == 1, qPrintable(r.err));
    QVERIFY2(t.elapsed() < 20000, "refused before training"); // 100,000 steps would take minutes
    QVERIFY(!QFile::exists("m.safetensors") && !QFile::exists("r.safetensors") && !QFile::exists("same.safetensors"));
}

// A --save (or --dump-run) that the disk cannot take is refused before training, not after it: a read-only disk
// and a full one (a tmpfs of the test's own, as root), with nothing trained, no table printed, nothing left.
void TestCliTrain::unwritable_target_refused_before_training_data()
{
    QTest::addColumn<bool>("full");
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("says");
    QTest::newRow("save-read-only") << false << "--save"
                                    << "failed (Read-only file system)";
    QTest::newRow("save-full") << true << "--save"
                               << "has no space left (No space left on device)";
    QTest::newRow("dump-run-read-only") << false << "--dump-run"
                                        << "failed (Read-only file system)";
}

void TestCliTrain::unwritable_target_refused_before_training()
{
    QFETCH(bool, full);
    QFETCH(QString, option);
    QFETCH(QString, says);
    testing::ScratchFs fs;
    if (!fs.ok())
        QSKIP(qPrintable(fs.reason()));
    QVERIFY(full ? fs.fill() : fs.remountReadOnly());
    const QString path = fs.filePath("model.safetensors");
    const Result r =
        cli({"train", "--task", "induction", "--heads", "2", "--seed", "1", "--steps", "100000", option, path});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("cannot write '" + path + "'") && r.err.contains(says), qPrintable(r.err));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out)); // nothing trained: no table
    QVERIFY(!QFile::exists(path));
}

// A sweep estimated at more than a couple of seconds says its runs and its estimated time on stderr before it
// starts, then its progress (steps and runs done, then head reports), all on stderr: --json's stdout stays the
// document alone. Nothing was said before.
void TestCliTrain::long_sweep_stated_with_progress()
{
    // Many cheap steps: estimated at a few seconds on an idle machine, and not minutes on a loaded one.
    const Result r = cli({"train", "--task", "induction", "--emb", "8", "--layers", "1", "--context", "12", "--batch",
                          "4", "--heads", "1,2", "--steps", "200000", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(!r.json().isEmpty()); // stdout is the JSON alone
    const QStringList lines = r.err.trimmed().split('\n');
    QVERIFY2(lines.size() >= 3, qPrintable(r.err));
    QVERIFY2(lines.first().startsWith("train: 2 run(s) of 200000 steps, about ") &&
                 lines.first().contains("estimated from a measured step"),
             qPrintable(r.err));
    QVERIFY2(r.err.contains("2 of 2 runs done") && r.err.contains("2 of 2 head reports done"), qPrintable(r.err));
    QVERIFY(r.err.indexOf("runs done") < r.err.indexOf("head reports done"));
    // A short sweep says nothing.
    const Result quiet = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "2"});
    QCOMPARE(quiet.code, 0);
    QVERIFY2(quiet.err.isEmpty(), qPrintable(quiet.err));
}

// A long context at batch 1 is held at what batch 1 holds: its held-out passes take as few sequences as keep their
// attention weights near a training step's, so it is not refused as 9 GiB "of activations per step" (the estimate
// assumed 64 sequences whatever the batch). The one-byte budget's refusal states the whole need.
void TestCliTrain::long_context_at_batch_1_not_refused()
{
    const Result r = cli(
        {"train", "--task", "previous-token", "--batch", "1", "--context", "4096", "--emb", "4", "--max-memory", "1"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("train needs about") && !r.err.contains("activations per step"), qPrintable(r.err));
    const auto said = QRegularExpression(R"(\((\d+) bytes)").match(r.err);
    QVERIFY2(said.hasMatch(), qPrintable(r.err));
    QVERIFY2(said.captured(1).toLongLong() < 4ll << 30, qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"
