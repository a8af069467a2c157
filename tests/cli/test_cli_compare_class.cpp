// attention-lab-cli compare FILE... | DIR --summary, the class's code: a folder of students' recordings (the
// book's modules, the lab's injected bugs, right code written differently, duplicates) plus two broken files,
// tallied by where each first diverges; every count, the stage order, anonymity, JSON against text.
#include "common/cli_runner.h"
#include "common/recording_files.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// The class: file name -> the recording it is a copy of. Sorted by name, alice is recording 1.
const QList<QPair<QString, QString>> kClass = {
    {"alice", "book-multi-head"},     {"bob", "softmax_wrong_dim"},
    {"carol", "book-wrapper"},        {"dave", "softmax_wrong_dim"},
    {"erin", "scale_by_d_out"},       {"frank", "merge_without_transpose"},
    {"grace", "right_inline_stages"}, {"heidi", "softmax_wrong_dim"},
    {"ivan", "scale_by_d_out"},       {"judy", "skip_mask"},
    {"ken", "swap_d_in_d_out"},       {"leo", "wrapper_head_without_mask"},
    {"mallory", "causal_no_scaling"}, {"nina", "merge_without_transpose"},
};

QByteArray read_all(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliCompareClass : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void text_tally();
    void anonymised_unless_names();
    void json_agrees_with_text();
    void file_list_gives_the_folders_tally();
    void every_student_module_at_once();
    void refusals();
    void at_most_500();

private:
    QTemporaryDir dir_;
    QString folder_;
};

void TestCliCompareClass::initTestCase()
{
    QVERIFY(dir_.isValid());
    folder_ = dir_.filePath("class");
    QVERIFY(QDir().mkpath(folder_));
    for (const auto& student : kClass)
        QVERIFY(write_file(folder_ + "/" + student.first + ".safetensors", read_all(recording_path(student.second))));
    // Two broken files among them: half of a recording, and noise.
    const QByteArray good = read_all(recording_path("skip_mask"));
    QVERIFY(!good.isEmpty());
    QVERIFY(write_file(folder_ + "/olga.safetensors", good.left(good.size() / 2)));
    QByteArray noise(4096, '\0');
    QRandomGenerator rng(45);
    for (char& c : noise)
        c = static_cast<char>(rng.bounded(256));
    QVERIFY(write_file(folder_ + "/peggy.safetensors", noise));
    // Neither another file type nor a subfolder is read: the folder is not walked recursively.
    QVERIFY(write_file(folder_ + "/notes.txt", "not a recording"));
    QVERIFY(QDir().mkpath(folder_ + "/old"));
    QVERIFY(write_file(folder_ + "/old/zoe.safetensors", good));
}

void TestCliCompareClass::text_tally()
{
    QElapsedTimer timer;
    timer.start();
    const Result r = cli({"compare", folder_, "--summary"});
    QCOMPARE(r.code, 0);
    QVERIFY2(timer.elapsed() < 60000, "a class's tally takes seconds");
    QVERIFY2(r.out.startsWith("The class's code: 16 recordings"), qPrintable(r.out));
    const QString tally = r.out.mid(r.out.indexOf("Tally:\n"));
    const QStringList lines = tally.split('\n', Qt::SkipEmptyParts);
    const QStringList expected = {
        "Tally:",
        "  3 match the book (recordings 1, 3, 7)",
        "  1 at config: swap-d_in-d_out, d_in and d_out swapped in the call (recording 11)",
        "  1 at attn_scores.masked: skip-mask, No causal mask (recording 10)",
        "  1 at heads.0.attn_scores.masked: no known bug (recording 12)",
        "  3 at attn_weights: softmax-wrong-dim, Softmax over the wrong axis (recordings 2, 4, 8)",
        "  2 at attn_weights: scale-by-d_out, Scores scaled by sqrt(d_out) (recordings 5, 9)",
        "  1 at attn_weights: no known bug (recording 13)",
        "  2 at context.transposed: merge-without-transpose, Heads merged without transposing back (recordings 6, "
        "14)",
        "  2 could not be read (recordings 15, 16)",
    };
    QCOMPARE(lines, expected);
    // The broken files are named, each in one sentence, and the others are still compared.
    QVERIFY2(r.out.contains(QRegularExpression("recording 15 +could not be read: [^\n]*olga\\.safetensors")),
             qPrintable(r.out));
    QVERIFY(r.out.contains(QRegularExpression("recording 16 +could not be read: [^\n]*peggy\\.safetensors")));
    QVERIFY(r.out.contains(QRegularExpression("recording 2 +first diverges at attn_weights \\(values\\), line 44: "
                                              "softmax-wrong-dim\n")));
    QVERIFY(!r.out.contains("zoe") && !r.out.contains("notes"));
}

void TestCliCompareClass::anonymised_unless_names()
{
    const Result hidden = cli({"compare", folder_, "--summary"});
    QVERIFY(hidden.out.contains("--names shows the file names"));
    for (const auto& student : kClass)
        QVERIFY2(!hidden.out.contains(student.first), qPrintable(student.first));
    const Result named = cli({"compare", folder_, "--summary", "--names"});
    QCOMPARE(named.code, 0);
    for (const auto& student : kClass)
        QVERIFY2(named.out.contains(student.first + ".safetensors"), qPrintable(student.first));
    // The tally is the same either way.
    QCOMPARE(named.out.mid(named.out.indexOf("Tally:")), hidden.out.mid(hidden.out.indexOf("Tally:")));
}

void TestCliCompareClass::json_agrees_with_text()
{
    const Result r = cli({"compare", folder_, "--summary", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject out = r.json();
    QCOMPARE(out["recordings"].toInt(), 16);
    QCOMPARE(out["read"].toInt(), 14);
    QCOMPARE(out["names"].toBool(), false);
    const QJsonArray files = out["files"].toArray();
    QCOMPARE(files.size(), 16);
    QVERIFY(files[0].toObject()["file"].isNull()); // anonymised
    QCOMPARE(files[0].toObject()["status"].toString(), "matches");
    QCOMPARE(files[1].toObject()["first_divergence"].toObject()["bug"].toString(), "softmax-wrong-dim");
    QCOMPARE(files[14].toObject()["status"].toString(), "unreadable");
    QVERIFY(files[14].toObject()["file"].toString().endsWith("olga.safetensors")); // broken files are named
    QVERIFY(!files[14].toObject()["error"].toString().isEmpty());
    const QJsonObject tally = out["tally"].toObject();
    QCOMPARE(tally["matches"].toObject()["count"].toInt(), 3);
    QCOMPARE(tally["unreadable"].toObject()["count"].toInt(), 2);
    // Every group of the JSON is the text's tally line.
    const Result text = cli({"compare", folder_, "--summary"});
    const QJsonArray groups = tally["divergences"].toArray();
    QCOMPARE(groups.size(), 7);
    int total = 0;
    for (const QJsonValue& value : groups) {
        const QJsonObject g = value.toObject();
        QStringList numbers;
        for (const QJsonValue& n : g["recordings"].toArray())
            numbers << QString::number(n.toInt());
        QCOMPARE(g["count"].toInt(), numbers.size());
        total += numbers.size();
        const QString bug = g["bug"].isNull() ? "no known bug" : g["bug"].toString() + ", " + g["bug_title"].toString();
        const QString line =
            QString("  %1 at %2: %3 (%4 %5)\n")
                .arg(numbers.size())
                .arg(g["stage"].toString(), bug, numbers.size() == 1 ? "recording" : "recordings", numbers.join(", "));
        QVERIFY2(text.out.contains(line), qPrintable(line));
    }
    QCOMPARE(total + 3 + 2, 16);
    QVERIFY(cli({"compare", folder_, "--summary", "--json", "--names"})
                .json()["files"]
                .toArray()[0]
                .toObject()["file"]
                .toString()
                .endsWith("alice.safetensors"));
}

void TestCliCompareClass::file_list_gives_the_folders_tally()
{
    QStringList args = {"compare"};
    for (const QString& name : QDir(folder_).entryList({"*.safetensors"}, QDir::Files, QDir::Name))
        args << QDir(folder_).filePath(name);
    QCOMPARE(args.size(), 17);
    args << "--summary";
    const Result list = cli(args);
    const Result folder = cli({"compare", folder_, "--summary"});
    QCOMPARE(list.code, 0);
    QCOMPARE(list.out, folder.out);
}

// All of tests/data/student_modules at once (40 recordings): the tally agrees with expected.json case by case.
void TestCliCompareClass::every_student_module_at_once()
{
    QTemporaryDir all;
    QMap<QString, int> expected_at; // stage -> how many diverge there
    int expected_matching = 0;
    const QJsonArray cases = student_cases();
    QVERIFY(cases.size() >= 40);
    for (const QJsonValue& value : cases) {
        const QJsonObject c = value.toObject();
        const QString name = c["name"].toString();
        QVERIFY(write_file(all.filePath(name + ".safetensors"), read_all(recording_path(name))));
        if (c["expected"].isNull())
            ++expected_matching;
        else
            ++expected_at[c["expected"].toObject()["stage"].toString()];
    }
    QElapsedTimer timer;
    timer.start();
    const Result r = cli({"compare", all.path(), "--summary", "--json"});
    QCOMPARE(r.code, 0);
    QVERIFY2(timer.elapsed() < 60000, "forty recordings take seconds");
    const QJsonObject tally = r.json()["tally"].toObject();
    QCOMPARE(r.json()["recordings"].toInt(), cases.size());
    QCOMPARE(tally["matches"].toObject()["count"].toInt(), expected_matching);
    QCOMPARE(tally["unreadable"].toObject()["count"].toInt(), 0);
    QMap<QString, int> at;
    for (const QJsonValue& g : tally["divergences"].toArray())
        at[g.toObject()["stage"].toString()] += g.toObject()["count"].toInt();
    QCOMPARE(at, expected_at);
}

void TestCliCompareClass::refusals()
{
    QTemporaryDir empty;
    const Result none = cli({"compare", empty.path(), "--summary"});
    QCOMPARE(none.code, 1);
    QVERIFY2(none.err.contains("no .safetensors recordings"), qPrintable(none.err));
    QCOMPARE(none.err.trimmed().count('\n'), 0);
    // Only broken files: nothing to tally.
    const Result broken = cli({"compare", folder_ + "/olga.safetensors", folder_ + "/peggy.safetensors", "--summary"});
    QCOMPARE(broken.code, 1);
    QVERIFY2(broken.err.contains("none of the 2 recordings could be read"), qPrintable(broken.err));
    QVERIFY(broken.out.isEmpty());
    // A missing file among good ones is counted, not fatal.
    const Result missing =
        cli({"compare", recording_path("book-multi-head"), empty.filePath("gone.safetensors"), "--summary"});
    QCOMPARE(missing.code, 0);
    QVERIFY(missing.out.contains("1 could not be read (recording 2)"));
    // Several files, or a folder, without --summary: one sentence each.
    const Result several = cli({"compare", recording_path("book-multi-head"), recording_path("skip_mask")});
    QCOMPARE(several.code, 2);
    QVERIFY2(several.err.contains("add --summary"), qPrintable(several.err));
    const Result folder = cli({"compare", folder_});
    QCOMPARE(folder.code, 1);
    QVERIFY2(folder.err.contains("is a folder; add --summary"), qPrintable(folder.err));
    QCOMPARE(cli({"compare", recording_path("book-multi-head"), "--names"}).code, 2);
    QCOMPARE(cli({"compare", "--summary"}).code, 2);
}

// A mistaken folder (a whole disk) is refused before anything is read.
void TestCliCompareClass::at_most_500()
{
    QTemporaryDir many;
    for (int i = 0; i < 501; ++i)
        QVERIFY(write_file(many.filePath(QString("r%1.safetensors").arg(i, 3, 10, QChar('0'))), "x"));
    const Result folder = cli({"compare", many.path(), "--summary"});
    QCOMPARE(folder.code, 1);
    QVERIFY2(folder.err.contains("more than 500 recordings"), qPrintable(folder.err));
    QStringList args = {"compare"};
    for (const QString& name : QDir(many.path()).entryList({"*.safetensors"}, QDir::Files, QDir::Name))
        args << many.filePath(name);
    args << "--summary";
    const Result list = cli(args);
    QCOMPARE(list.code, 1);
    QVERIFY2(list.err.contains("more than the 500"), qPrintable(list.err));
}

QTEST_GUILESS_MAIN(TestCliCompareClass)
#include "test_cli_compare_class.moc"
