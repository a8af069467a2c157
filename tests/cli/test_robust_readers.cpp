// The file readers read only what a command uses, in time linear in the header, and refuse a bad file in a
// sentence that names the problem truly. Files too big for git (a gigabyte tensor whose data is a hole in a
// sparse file) are made here, at run time, in a temporary directory.
#include "common/process_measure.h"
#include "common/recording_files.h"
#include "common/sparse_files.h"

#include <QtTest>

#include <unistd.h>

using testing::kHugeBytes;
using testing::mha_state_dict;
using testing::Spec;
using testing::write_tensors;

namespace {

const QString kCall = QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)");
// Far below the gigabyte a reader that loads the whole file would take, far above what the commands need.
constexpr long long kMemoryLimit = 64ll * 1024 * 1024;
// A header holding `prefix`, then the text `body`, then `suffix`: for headers made of many small parts.
bool write_header(const QString& path, const QByteArray& header, const QByteArray& data)
{
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((static_cast<std::uint64_t>(header.size()) >> (8 * i)) & 0xff);
    return write_file(path, out + header + data);
}

// The MHA state dict and `extra` more one-float tensors: a header of many entries.
bool write_many_entries(const QString& path, int extra)
{
    QList<Spec> tensors = mha_state_dict();
    for (int i = 0; i < extra; ++i)
        tensors.push_back({QStringLiteral("extra.%1").arg(i), {1}});
    return write_tensors(path, tensors, false);
}

// The MHA state dict whose W_query.weight entry carries an unknown field holding `count` empty objects.
bool write_unknown_field(const QString& path, int count)
{
    QByteArray junk = "[";
    for (int i = 0; i < count; ++i)
        junk += i ? ",{}" : "{}";
    junk += "]";
    QByteArray header = "{";
    std::uint64_t offset = 0;
    for (const Spec& t : mha_state_dict()) {
        std::uint64_t numel = 1;
        QStringList dims;
        for (std::uint64_t d : t.shape) {
            numel *= d;
            dims << QString::number(d);
        }
        header += QStringLiteral("\"%1\":{\"dtype\":\"F32\",\"shape\":[%2],\"data_offsets\":[%3,%4]")
                      .arg(t.name, dims.join(','))
                      .arg(offset)
                      .arg(offset + 4 * numel)
                      .toUtf8();
        header += (t.name == "W_query.weight" ? ",\"junk\":" + junk : QByteArray()) + "},";
        offset += 4 * numel;
    }
    header.chop(1);
    return write_header(path, header + "}", QByteArray(static_cast<int>(offset), '\0'));
}

Measured cli(const QStringList& args)
{
    return measure_process(ATTNLAB_CLI_PATH, args);
}

} // namespace

class TestRobustReaders : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void inspectReadsTheHeaderOnly();
    void runReadsOnlyTheWeightsItUses();
    void inputReadsOnlyX();
    void gptModelReadsOnlyItsTensors();
    void headerOfManyEntriesIsLinear();
    void unknownFieldIsLinear();
    void duplicateFieldsAreRefused_data();
    void duplicateFieldsAreRefused();
    void namesArePrintedSafely();
    void symlinkLoopIsNamed();
    void recordingNaNNamesItsField();
    void recordingHugeIntegerIsRefusedByItsValue();

private:
    QTemporaryDir dir_;
};

void TestRobustReaders::inspectReadsTheHeaderOnly()
{
    const QString path = dir_.filePath("mha_plus_huge.safetensors");
    QVERIFY(write_tensors(path, mha_state_dict(), true));
    const Measured m = cli({"inspect", path});
    QCOMPARE(m.code, 0);
    QVERIFY2(m.out.contains("MultiHeadAttention"), qPrintable(m.out + m.err));
    QVERIFY2(m.peak_rss_bytes < kMemoryLimit, qPrintable(QString::number(m.peak_rss_bytes)));
}

void TestRobustReaders::runReadsOnlyTheWeightsItUses()
{
    const QString path = dir_.filePath("mha_plus_huge_run.safetensors");
    QVERIFY(write_tensors(path, mha_state_dict(), true));
    const QString dump = dir_.filePath("out.safetensors");
    const Measured m = cli({"run", "--call", kCall, "--weights", path, "--dump", dump, "--max-memory", "32M"});
    QVERIFY2(m.code == 0, qPrintable(m.err));
    QVERIFY(QFile::exists(dump));
    QVERIFY2(m.peak_rss_bytes < kMemoryLimit, qPrintable(QString::number(m.peak_rss_bytes)));
}

void TestRobustReaders::inputReadsOnlyX()
{
    const QString path = dir_.filePath("x_plus_huge.safetensors");
    QVERIFY(write_tensors(path, {{"x", {1, 6, 3}}}, true));
    const QString dump = dir_.filePath("out_x.safetensors");
    const Measured m = cli({"run", "--call", kCall, "--input", path, "--dump", dump, "--max-memory", "32M"});
    QVERIFY2(m.code == 0, qPrintable(m.err));
    QVERIFY2(m.peak_rss_bytes < kMemoryLimit, qPrintable(QString::number(m.peak_rss_bytes)));
}

void TestRobustReaders::gptModelReadsOnlyItsTensors()
{
    // A trained model from resources/models with one more, unused, gigabyte tensor whose data is a hole.
    QFile source(ATTNLAB_MODELS_DIR "/verdict-gpt-h4.safetensors");
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QByteArray model = source.readAll();
    QVERIFY(model.size() > 8);
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
        length = (length << 8) | static_cast<unsigned char>(model[i]);
    const QByteArray data = model.mid(static_cast<qsizetype>(8 + length));
    QJsonObject header = QJsonDocument::fromJson(model.mid(8, static_cast<qsizetype>(length))).object();
    QVERIFY(header.contains("__metadata__"));
    header["unused"] =
        QJsonObject{{"dtype", "F32"},
                    {"shape", QJsonArray{static_cast<qint64>(kHugeBytes / 4)}},
                    {"data_offsets", QJsonArray{data.size(), static_cast<qint64>(data.size() + kHugeBytes)}}};
    const QString path = dir_.filePath("gpt_plus_huge.safetensors");
    QVERIFY(write_header(path, QJsonDocument(header).toJson(QJsonDocument::Compact), data));
    QVERIFY(QFile::resize(path, QFileInfo(path).size() + static_cast<qint64>(kHugeBytes)));
    const Measured m = cli({"run", "--model", path, "--layer", "0", "--text", "I HAD always", "--dump",
                            dir_.filePath("gpt_out.safetensors")});
    QVERIFY2(m.code == 0, qPrintable(m.err));
    QVERIFY2(m.peak_rss_bytes < kMemoryLimit, qPrintable(QString::number(m.peak_rss_bytes)));
}

void TestRobustReaders::headerOfManyEntriesIsLinear()
{
    const QString small = dir_.filePath("entries_n.safetensors"), large = dir_.filePath("entries_2n.safetensors");
    // Sizes where a run takes a tenth of a second or more: below that, start-up and the caches' effects
    // blur a ratio (the quadratic reader took 1 s for 20k entries, 4 s for 40k).
    QVERIFY(write_many_entries(small, 40000));
    QVERIFY(write_many_entries(large, 80000));
    QCOMPARE(cli({"inspect", large}).code, 0);
    const DoublingTimes t = doubling_times(ATTNLAB_CLI_PATH, {"inspect", small}, {"inspect", large});
    QVERIFY2(t.ratio() <= 3.0, qPrintable(QStringLiteral("%1 CPU s, then %2 CPU s").arg(t.small).arg(t.large)));
}

void TestRobustReaders::unknownFieldIsLinear()
{
    const QString small = dir_.filePath("junk_n.safetensors"), large = dir_.filePath("junk_2n.safetensors");
    QVERIFY(write_unknown_field(small, 200000));
    QVERIFY(write_unknown_field(large, 400000));
    QCOMPARE(cli({"inspect", large}).code, 0);
    const DoublingTimes t = doubling_times(ATTNLAB_CLI_PATH, {"inspect", small}, {"inspect", large});
    QVERIFY2(t.ratio() <= 3.0, qPrintable(QStringLiteral("%1 CPU s, then %2 CPU s").arg(t.small).arg(t.large)));
}

void TestRobustReaders::duplicateFieldsAreRefused_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QString>("needle");
    QTest::newRow("two dtypes") << QByteArray(R"({"a":{"dtype":"F32","dtype":"F16","shape":[1],"data_offsets":[0,4]}})")
                                << "'a' that gives \"dtype\" twice";
    QTest::newRow("two shapes") << QByteArray(R"({"a":{"dtype":"F32","shape":[1],"shape":[2],"data_offsets":[0,4]}})")
                                << "'a' that gives \"shape\" twice";
    QTest::newRow("two names") << QByteArray(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                             R"("a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})")
                               << "names 'a' twice";
    QTest::newRow("two metadata keys") << QByteArray(R"({"__metadata__":{"k":"1","k":"2"}})")
                                       << "__metadata__ key 'k' twice";
}

void TestRobustReaders::duplicateFieldsAreRefused()
{
    QFETCH(QByteArray, header);
    QFETCH(QString, needle);
    const QString path = dir_.filePath("duplicate.safetensors");
    QVERIFY(write_header(path, header, QByteArray(4, '\0')));
    const Measured m = cli({"inspect", path});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.contains(needle), qPrintable(m.err));
    QCOMPARE(m.err.trimmed().count('\n'), 0);
}

void TestRobustReaders::namesArePrintedSafely()
{
    const QString path = dir_.filePath("names.safetensors");
    QVERIFY(write_header(path, QByteArray(R"({"a\u0000b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})"),
                         QByteArray(4, '\0')));
    Measured m = cli({"inspect", path});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.contains("holds a\\x00b, which fits no layout"), qPrintable(m.err));
    QVERIFY(!m.err.contains(QChar(0)));

    QVERIFY(write_header(path, QByteArray(R"({"":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})"),
                         QByteArray(4, '\0')));
    m = cli({"inspect", path});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.contains("holds a tensor with an empty name, which fits no layout"), qPrintable(m.err));

    const QByteArray longName(5000, 'n');
    QVERIFY(write_header(path, R"({")" + longName + R"(":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
                         QByteArray(4, '\0')));
    m = cli({"inspect", path});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.size() < 1000 && m.err.contains("nnn..."), qPrintable(m.err));
}

void TestRobustReaders::symlinkLoopIsNamed()
{
    const QString path = dir_.filePath("loop.safetensors");
    QVERIFY(::symlink(qPrintable(path), qPrintable(path)) == 0);
    const Measured m = cli({"inspect", path});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.contains("symbolic-link loop") && !m.err.contains("does not exist"), qPrintable(m.err));
}

void TestRobustReaders::recordingNaNNamesItsField()
{
    QJsonObject meta = minimal_recording_metadata();
    meta["attributes"] = QJsonObject{{"dropout", 0.5}};
    const QString path = dir_.filePath("nan_recording.safetensors");
    QByteArray bytes = recording_bytes(meta);
    const qsizetype at = bytes.indexOf(R"(\"dropout\":0.5)");
    QVERIFY(at > 0);
    bytes.replace(at, 15, R"(\"dropout\":NaN)"); // what Python's json.dumps writes for float('nan')
    QVERIFY(write_file(path, bytes));
    const Measured m = cli({"compare", path});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.contains("\"dropout\" holds NaN") && !m.err.contains("not a JSON object"), qPrintable(m.err));
}

void TestRobustReaders::recordingHugeIntegerIsRefusedByItsValue()
{
    QJsonObject meta = minimal_recording_metadata();
    meta["attributes"] = QJsonObject{{"num_heads", 7}};
    const QString path = dir_.filePath("huge_heads_recording.safetensors");
    QByteArray bytes = recording_bytes(meta);
    const qsizetype at = bytes.indexOf(R"(\"num_heads\":7)");
    QVERIFY(at > 0);
    bytes.replace(at, 15, R"(\"num_heads\":9223372036854775808)");
    // The header length grew; write the file anew around the changed metadata.
    const QByteArray header = bytes.mid(8, bytes.size() - 8 - 24);
    QVERIFY(write_header(path, header, QByteArray(24, '\0')));
    const Measured m = cli({"compare", path});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.contains("9223372036854775808") && !m.err.contains("-9223372036854775808"), qPrintable(m.err));
}

QTEST_GUILESS_MAIN(TestRobustReaders)
#include "test_robust_readers.moc"
