// attention-lab-cli compare as a learner runs it: the JSON's shape, the text summary, exit codes and the
// one-sentence refusals of bad recordings (truncated, not a recording, a 1 GB tensor, garbage).
#include "common/cli_runner.h"
#include "common/recording_files.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

class TestCliCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void json_shape();
    void json_book_module_has_none();
    void text_summary();
    void num_heads_option();
    void grouped_query_against_the_labs_module();
    void refusals_data();
    void refusals();
};

void TestCliCompare::json_shape()
{
    const Result r = cli({"compare", recording_path("softmax_wrong_dim"), "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject out = r.json();
    QCOMPARE(out["module"].toString(), "MultiHeadAttention");
    const QJsonObject d = out["first_divergence"].toObject();
    QCOMPARE(d["stage"].toString(), "attn_weights");
    QCOMPARE(d["kind"].toString(), "values");
    QCOMPARE(d["line"].toInt(), 44);
    QCOMPARE(d["variable"].toString(), "attn_weights");
    QCOMPARE(d["bug"].toString(), "softmax-wrong-dim");
    QVERIFY(d["source"].toString().contains("dim=-2"));
    QVERIFY(d["nearest"].toObject()["max_abs_diff"].toDouble() > 1e-3);
    const QJsonObject e = cli({"compare", recording_path("keys_T_4d"), "--json"}).json()["first_divergence"].toObject();
    QCOMPARE(e["kind"].toString(), "error");
    QVERIFY(e["variable"].isNull());
    QVERIFY(e["bug"].isNull());
    QVERIFY(e["error"].toString().startsWith("RuntimeError: "));
}

void TestCliCompare::json_book_module_has_none()
{
    for (const char* name : {"book-multi-head", "book-wrapper", "book-self-attention-v1"}) {
        const Result r = cli({"compare", recording_path(name), "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.json().contains("first_divergence"));
        QVERIFY(r.json()["first_divergence"].isNull());
    }
}

void TestCliCompare::text_summary()
{
    const Result r = cli({"compare", recording_path("scale_by_d_out")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("First divergence: attn_weights (values) at line 45"), qPrintable(r.out));
    QVERIFY(r.out.contains("self.d_out**0.5")); // the learner's own line
    QVERIFY(r.out.contains("max |difference|"));
    QVERIFY(r.out.contains("scale-by-d_out"));
    const Result none = cli({"compare", recording_path("right_inline_stages")});
    QVERIFY(none.out.contains("No divergence"));
}

void TestCliCompare::num_heads_option()
{
    const Result r = cli({"compare", recording_path("book-multi-head"), "--num-heads", "4", "--json"});
    // Another head count changes the book's stages: the learner's (2, 6, 2, 2) view still holds the data of
    // the book's (2, 6, 4, 1) one (a reshape of it, and no stage has its shape), but the transpose does not.
    QCOMPARE(r.code, 0);
    QCOMPARE(r.json()["first_divergence"].toObject()["stage"].toString(), "keys.heads"); // keys come first in the book
    QCOMPARE(cli({"compare", recording_path("book-multi-head"), "--num-heads", "0"}).code, 1);
    QCOMPARE(cli({"compare", recording_path("book-multi-head"), "--heads", "2"}).code, 2);
    QCOMPARE(cli({"compare"}).code, 2);
}

// A student's GroupedQueryAttention is read as the lab's module (chapter 3 has none), with num_kv_groups and the
// window read from the recorded attributes, and the repeat-for-repeat_interleave mistake said in its terms.
void TestCliCompare::grouped_query_against_the_labs_module()
{
    const Result right = cli({"compare", recording_path("book-grouped-query-window")});
    QCOMPARE(right.code, 0);
    QVERIFY2(right.out.contains("your GroupedQueryAttention read as the lab's GroupedQueryAttention "
                                "(GroupedQueryAttention(3, 8, 6, 0.0, 4, 2, window_size=3))"),
             qPrintable(right.out));
    QVERIFY(right.out.contains("No divergence"));
    const Result tiled = cli({"compare", recording_path("gqa_repeat_not_interleave"), "--json"});
    QCOMPARE(tiled.code, 0);
    QCOMPARE(tiled.json()["module"].toString(), "GroupedQueryAttention");
    const QJsonObject d = tiled.json()["first_divergence"].toObject();
    QCOMPARE(d["stage"].toString(), "keys.repeated");
    QCOMPARE(d["line"].toInt(), 47);
    QVERIFY2(d["message"].toString().contains("repeat_interleave(group_size, dim=1), so query heads 0 and 1 both read "
                                              "head 0"),
             qPrintable(d["message"].toString()));
}

void TestCliCompare::refusals_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("says");
    QFile f(recording_path("skip_mask"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray good = f.readAll();
    QTest::newRow("truncated") << good.left(good.size() / 2) << "truncated";
    QTest::newRow("garbage") << QByteArray(300, '\x7f') << "header length";
    QFile weights(QString(ATTNLAB_TEST_DATA_DIR) + "/golden/book_toy.safetensors");
    QVERIFY(weights.open(QIODevice::ReadOnly));
    QTest::newRow("not a recording") << weights.readAll() << "not a recording";
    QTest::newRow("1 GB header")
        << recording_bytes(minimal_recording_metadata(),
                           QJsonObject{{"rec.0000", QJsonObject{{"dtype", "F32"},
                                                                {"shape", QJsonArray{16384, 16384}},
                                                                {"data_offsets", QJsonArray{24, 1073741848.0}}}}})
        << "allowed per tensor";
    QTest::newRow("newer version") << recording_bytes(minimal_recording_metadata(7)) << "newer";
    QTest::newRow("fits no module") << recording_bytes(minimal_recording_metadata()) << "fit none";
}

void TestCliCompare::refusals()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.safetensors");
    QVERIFY(write_file(path, bytes));
    for (const QStringList& args : {QStringList{"compare", path}, QStringList{"compare", path, "--json"}}) {
        const Result r = cli(args);
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(says), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0); // one line, one sentence
    }
    QCOMPARE(cli({"compare", dir.filePath("missing.safetensors")}).code, 1);
    QCOMPARE(cli({"compare", dir.path()}).code, 1); // a directory
}

QTEST_GUILESS_MAIN(TestCliCompare)
#include "test_cli_compare.moc"
