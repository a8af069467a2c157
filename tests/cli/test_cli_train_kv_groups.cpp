// attention-lab-cli train --kv-groups: a variant per key/value group count with its KV bytes per token, a group count
// that does not divide every head count refused in one sentence naming those that do, and a grouped model saved
// with the count in its metadata that `run --model` and `generate` read back.
#include "common/cli_runner.h"
#include "gpt/gpt_model.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

namespace {
const QStringList kSmall{"--task",    "induction", "--emb",   "8", "--layers", "2",
                         "--context", "12",        "--batch", "4", "--steps",  "20"};
} // namespace

class TestCliTrainKvGroups : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void variant_per_group_count();
    void groups_not_dividing_refused();
    void grouped_model_saved_and_read();
};

void TestCliTrainKvGroups::variant_per_group_count()
{
    const Result r = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "4", "--kv-groups", "4,2,1", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject o = r.json();
    const QJsonArray variants = o["variants"].toArray();
    QCOMPARE(variants.size(), 3);
    const int groups[] = {4, 2, 1};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject v = variants[i].toObject();
        QCOMPARE(v["n_heads"].toInt(), 4);
        QCOMPARE(v["kv_groups"].toInt(), groups[i]);
        // a key and a value row of kv_groups x head_dim F32 values per layer
        QCOMPARE(v["kv_bytes_per_token"].toInt(), 2 * o["n_layers"].toInt() * groups[i] * v["head_dim"].toInt() * 4);
        QVERIFY(v["val_accuracy_mean"].toDouble() >= 0.0);
    }
    const Result table = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "4", "--kv-groups", "2"});
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains("kv_groups") && table.out.contains("4 head(s) in 2 key/value group(s), seed 0"),
             qPrintable(table.out));
}

void TestCliTrainKvGroups::groups_not_dividing_refused()
{
    const Result r = cli(QStringList{"train"} + kSmall + QStringList{"--heads", "4,8", "--kv-groups", "2,8"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("num_kv_groups 8 does not divide num_heads 4") && r.err.contains("1, 2, 4.") &&
                 r.err.count('\n') == 1,
             qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    const Result twice = cli(QStringList{"train"} + kSmall +
                             QStringList{"--heads", "4", "--kv-groups", "1,2", "--save", "never.safetensors"});
    QCOMPARE(twice.code, 1);
    QVERIFY2(twice.err.contains("--kv-groups"), qPrintable(twice.err));
}

void TestCliTrainKvGroups::grouped_model_saved_and_read()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("grouped.safetensors");
    const Result r =
        cli(QStringList{"train"} + kSmall + QStringList{"--heads", "4", "--kv-groups", "1", "--save", path});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const attnlab::GptModel m = attnlab::load_gpt_model(path.toStdString());
    QCOMPARE(m.settings.kv_groups(), 1);
    QCOMPARE(m.weights.at("trf_blocks.1.att.W_value.weight").shape(), (attnlab::Shape{2, 8}));
    const Result run = cli({"run", "--model", path, "--layer", "1", "--dump", dir.filePath("dump.safetensors")});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const Result gen = cli({"generate", "--model", path, "--text", "A B C A B", "--tokens", "2", "--compare"});
    QVERIFY2(gen.code == 0, qPrintable(gen.err));
}

QTEST_GUILESS_MAIN(TestCliTrainKvGroups)
#include "test_cli_train_kv_groups.moc"
