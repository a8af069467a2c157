// Reading the golden files, F16/BF16 conversion, atomic write and round trip, and refusing
// malformed files with a sentence that says what is wrong.
#include "common/errors.h"
#include "tensor/error.h"
#include "io/safetensors.h"

#include <QtEndian>
#include <QtTest>

#include <QtCore/qfloat16.h>

#include <bit>
#include <cmath>
#include <csignal>
#include <functional>

#ifdef Q_OS_UNIX
#include <sys/resource.h>
#endif

using namespace attnlab;
using testing::error_of;
Q_DECLARE_METATYPE(attnlab::Shape)

namespace {

QString golden(const QString& name)
{
    return QStringLiteral(ATTNLAB_GOLDEN_DIR "/") + name;
}

QByteArray read_bytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// An 8-byte little-endian header length (the real one unless `declared` overrides it), header, data.
QByteArray safetensors_bytes(const QByteArray& header, const QByteArray& data, qint64 declared = -1)
{
    QByteArray out(8, '\0');
    qToLittleEndian<quint64>(declared < 0 ? quint64(header.size()) : quint64(declared), out.data());
    return out + header + data;
}

} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void golden_file_data();
    void golden_file();
    void every_golden_file_reads();
    void half_to_float_data();
    void half_to_float();
    void half_matches_compiler_float16();
    void bfloat16_to_float_data();
    void bfloat16_to_float();
    void reduced_precision_golden_values();
    void round_trip_keeps_order_values_and_metadata();
    void rewriting_a_golden_file_is_byte_identical_data();
    void rewriting_a_golden_file_is_byte_identical();
    void failed_write_leaves_nothing_data();
    void failed_write_leaves_nothing();
    void overwrite_replaces_atomically();
    void write_error_midway_removes_temp_file();
    void tensors_come_in_data_order();
    void malformed_file_is_refused_data();
    void malformed_file_is_refused();
    void opening_reads_only_what_is_asked_for();
    void in_memory_and_opened_files_agree();
    void printable_name_escapes_and_cuts();
};

void TestSafetensors::golden_file_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("first");
    QTest::addColumn<Shape>("first_shape");
    QTest::addColumn<QString>("first_dtype");
    QTest::addColumn<QString>("call_prefix");
    QTest::newRow("book_toy") << "book_toy" << 22 << "W_query.weight" << Shape{2, 3} << "F32"
                              << "MultiHeadAttention(";
    QTest::newRow("bias_rect") << "bias_rect" << 25 << "W_query.weight" << Shape{12, 10} << "F32"
                               << "MultiHeadAttention(";
    QTest::newRow("book_causal") << "book_causal" << 11 << "W_query.weight" << Shape{2, 3} << "F32"
                                 << "CausalAttention(";
    QTest::newRow("v1") << "book_self_attention_v1" << 10 << "W_query" << Shape{3, 2} << "F32"
                        << "SelfAttention_v1(";
    QTest::newRow("v2") << "book_self_attention_v2" << 10 << "W_query.weight" << Shape{2, 3} << "F32"
                        << "SelfAttention_v2(";
    QTest::newRow("wrapper_d1") << "book_wrapper_d1" << 8 << "heads.0.W_query.weight" << Shape{1, 3} << "F32"
                                << "MultiHeadAttentionWrapper(";
    QTest::newRow("wrapper_d2") << "book_wrapper_d2" << 8 << "heads.0.W_query.weight" << Shape{2, 3} << "F32"
                                << "MultiHeadAttentionWrapper(";
    QTest::newRow("gpt2_small_t8") << "gpt2_small_t8" << 22 << "W_query.weight" << Shape{768, 768} << "F32"
                                   << "MultiHeadAttention(d_in=768";
    QTest::newRow("gpt2_layout_tiny") << "gpt2_layout_tiny" << 7 << "h.0.attn.c_attn.weight" << Shape{16, 48} << "F32"
                                      << "MultiHeadAttention(d_in=16";
    QTest::newRow("bf16") << "bf16_weights" << 25 << "W_query.weight" << Shape{8, 8} << "BF16"
                          << "MultiHeadAttention(";
    QTest::newRow("f16") << "f16_weights" << 22 << "W_query.weight" << Shape{4, 6} << "F16"
                         << "MultiHeadAttention(";
}

void TestSafetensors::golden_file()
{
    QFETCH(QString, file);
    QFETCH(int, count);
    QFETCH(QString, first);
    QFETCH(Shape, first_shape);
    QFETCH(QString, first_dtype);
    QFETCH(QString, call_prefix);
    const SafetensorsFile f = read_safetensors(golden(file + ".safetensors").toStdString());
    QCOMPARE(int(f.tensors.size()), count);
    QCOMPARE(int(f.dtypes.size()), count);
    QCOMPARE(QString::fromStdString(f.tensors.front().first), first);
    QCOMPARE(f.tensors.front().second.shape(), first_shape);
    QCOMPARE(QString::fromStdString(f.dtypes.at(first.toStdString())), first_dtype);
    QVERIFY(QString::fromStdString(f.meta("call")).startsWith(call_prefix));
    QCOMPARE(f.metadata.front().first, std::string("call")); // metadata keeps header order
    QCOMPARE(f.meta("no-such-key", "fallback"), std::string("fallback"));
    QVERIFY(f.find(first.toStdString()) == &f.tensors.front().second);
    QVERIFY(!f.find("no-such-tensor"));
    for (const auto& [name, tensor] : f.tensors)
        QVERIFY2(tensor.is_contiguous() && tensor.defined(), name.c_str());
}

void TestSafetensors::every_golden_file_reads()
{
    const QStringList files = QDir(ATTNLAB_GOLDEN_DIR).entryList({"*.safetensors"}, QDir::Files);
    QVERIFY2(files.size() >= 11, ATTNLAB_GOLDEN_DIR); // a missing folder must fail, not pass vacuously
    for (const QString& name : files) {
        const SafetensorsFile f = read_safetensors(golden(name).toStdString());
        QVERIFY2(f.find("x") && !f.meta("call").empty(), qPrintable(name));
        QVERIFY(f.tensors.back().first.starts_with("expected.")); // data order: parameters, x, then stages
    }
}

void TestSafetensors::half_to_float_data()
{
    QTest::addColumn<int>("bits");
    QTest::addColumn<float>("expected");
    QTest::newRow("one") << 0x3C00 << 1.0f;
    QTest::newRow("minus-two") << 0xC000 << -2.0f;
    QTest::newRow("one-third") << 0x3555 << 0.333251953125f;
    QTest::newRow("max") << 0x7BFF << 65504.0f;
    QTest::newRow("min-normal") << 0x0400 << 6.103515625e-05f;
    QTest::newRow("min-subnormal") << 0x0001 << 5.9604644775390625e-08f;
    QTest::newRow("max-subnormal") << 0x03FF << 6.097555160522461e-05f;
    QTest::newRow("neg-subnormal") << 0x8200 << -3.0517578125e-05f;
    QTest::newRow("zero") << 0x0000 << 0.0f;
    QTest::newRow("neg-zero") << 0x8000 << -0.0f;
    QTest::newRow("inf") << 0x7C00 << std::bit_cast<float>(0x7F800000u);
    QTest::newRow("neg-inf") << 0xFC00 << std::bit_cast<float>(0xFF800000u);
    QTest::newRow("nan") << 0x7E00 << std::bit_cast<float>(0x7FC00000u);
}

void TestSafetensors::half_to_float()
{
    QFETCH(int, bits);
    QFETCH(float, expected);
    // Bit patterns, so -0 differs from 0 and NaN compares to NaN.
    QCOMPARE(std::bit_cast<quint32>(attnlab::half_to_float(quint16(bits))), std::bit_cast<quint32>(expected));
}

void TestSafetensors::half_matches_compiler_float16()
{
#ifdef __FLT16_MANT_DIG__
    for (quint32 bits = 0; bits <= 0xFFFF; ++bits) {
        const float ours = attnlab::half_to_float(quint16(bits));
        const float reference = float(std::bit_cast<_Float16>(quint16(bits)));
        const bool same = std::isnan(reference) ? std::isnan(ours)
                                                : std::bit_cast<quint32>(ours) == std::bit_cast<quint32>(reference);
        QVERIFY2(same, qPrintable(QString::number(bits, 16)));
    }
#else
    QSKIP("the compiler has no _Float16 to compare with");
#endif
}

void TestSafetensors::bfloat16_to_float_data()
{
    QTest::addColumn<int>("bits");
    QTest::addColumn<float>("expected");
    QTest::newRow("one") << 0x3F80 << 1.0f;
    QTest::newRow("minus-three") << 0xC040 << -3.0f;
    QTest::newRow("one-third") << 0x3EAB << 0.333984375f;
    QTest::newRow("subnormal") << 0x0001 << std::bit_cast<float>(0x00010000u);
    QTest::newRow("inf") << 0x7F80 << std::bit_cast<float>(0x7F800000u);
    QTest::newRow("neg-inf") << 0xFF80 << std::bit_cast<float>(0xFF800000u);
    QTest::newRow("nan") << 0x7FC0 << std::bit_cast<float>(0x7FC00000u);
}

void TestSafetensors::bfloat16_to_float()
{
    QFETCH(int, bits);
    QFETCH(float, expected);
    QCOMPARE(std::bit_cast<quint32>(attnlab::bfloat16_to_float(quint16(bits))), std::bit_cast<quint32>(expected));
}

void TestSafetensors::reduced_precision_golden_values()
{
    // Read from BF16, every value keeps only the top 16 bits; from F16, every value survives a trip through half.
    const SafetensorsFile bf16 = read_safetensors(golden("bf16_weights.safetensors").toStdString());
    const std::vector<float> b = bf16.find("W_query.weight")->to_vector();
    QVERIFY(std::any_of(b.begin(), b.end(), [](float v) { return v != 0.0f; }));
    for (float v : b)
        QCOMPARE(std::bit_cast<quint32>(v) & 0xFFFFu, 0u);
    const SafetensorsFile f16 = read_safetensors(golden("f16_weights.safetensors").toStdString());
    for (float v : f16.find("out_proj.weight")->to_vector()) {
        QVERIFY(v != 0.0f && std::fabs(v) < 1.0f);
        QCOMPARE(float(qfloat16(v)), v);
    }
}

void TestSafetensors::round_trip_keeps_order_values_and_metadata()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("round.safetensors").toStdString();
    std::vector<float> values(12);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = float(i) * 0.25f - 1.0f;
    const Tensor base = Tensor::from_values({3, 4}, values);
    const Tensor transposed = base.transpose(0, 1); // not contiguous: must be written in logical order
    QVERIFY(!transposed.is_contiguous());
    const std::vector<std::pair<std::string, Tensor>> tensors = {
        {"z.last-name-first", Tensor::from_values({2}, {-0.0f, 3.5f})},
        {"transposed", transposed},
        {"a.base", base},
        {"empty", Tensor::zeros({0, 3})},
    };
    write_safetensors(path, tensors, {{"zeta", "1"}, {"alpha", "two words"}});

    const SafetensorsFile f = read_safetensors(path);
    QCOMPARE(int(f.tensors.size()), 4);
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        QCOMPARE(f.tensors[i].first, tensors[i].first);
        QCOMPARE(f.tensors[i].second.shape(), tensors[i].second.shape());
        QCOMPARE(f.tensors[i].second.to_vector(), tensors[i].second.to_vector());
        QCOMPARE(f.dtypes.at(tensors[i].first), std::string("F32"));
    }
    QCOMPARE(f.find("transposed")->at({3, 2}), values[2 * 4 + 3]);
    QVERIFY(std::signbit(f.find("z.last-name-first")->at({0})));
    QCOMPARE(f.metadata, (std::vector<std::pair<std::string, std::string>>{{"zeta", "1"}, {"alpha", "two words"}}));

    const QByteArray bytes = read_bytes(dir.filePath("round.safetensors"));
    const quint64 header_len = qFromLittleEndian<quint64>(bytes.constData());
    QCOMPARE(header_len % 8, quint64(0));
    QVERIFY(bytes.mid(8).startsWith("{\"__metadata__\":{\"zeta\":\"1\""));
    QCOMPARE(quint64(bytes.size()), 8 + header_len + 4 * (2 + 12 + 12));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"round.safetensors"});
}

void TestSafetensors::rewriting_a_golden_file_is_byte_identical_data()
{
    QTest::addColumn<QString>("file");
    for (const char* name : {"book_toy", "bias_rect", "book_causal", "book_wrapper_d1", "gpt2_layout_tiny"})
        QTest::newRow(name) << QString(name);
}

void TestSafetensors::rewriting_a_golden_file_is_byte_identical()
{
    // The golden F32 files come from the reference writer: same compact JSON, same padding, same order.
    QFETCH(QString, file);
    const SafetensorsFile f = read_safetensors(golden(file + ".safetensors").toStdString());
    QTemporaryDir dir;
    write_safetensors(dir.filePath("copy.safetensors").toStdString(), f.tensors, f.metadata);
    QCOMPARE(read_bytes(dir.filePath("copy.safetensors")), read_bytes(golden(file + ".safetensors")));
}

void TestSafetensors::failed_write_leaves_nothing_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<QString>("tensor_name");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing-directory") << "missing/dir/out.safetensors"
                                       << "w"
                                       << "does not exist";
    QTest::newRow("directory-in-the-way") << "taken"
                                          << "w"
                                          << "directory";
    QTest::newRow("reserved-name") << "out.safetensors"
                                   << "__metadata__"
                                   << "reserved";
}

void TestSafetensors::failed_write_leaves_nothing()
{
    QFETCH(QString, relative);
    QFETCH(QString, tensor_name);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("taken"));
    const std::string path = dir.filePath(relative).toStdString();
    const QString error = error_of([&] {
        write_safetensors(path, {{tensor_name.toStdString(), Tensor::zeros({2})}}, {{"k", "v"}});
    });
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.contains(QString::fromStdString(path)), qPrintable(error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"taken"});
    QVERIFY(QFileInfo(dir.filePath("taken")).isDir());
}

void TestSafetensors::overwrite_replaces_atomically()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("w.safetensors").toStdString();
    write_safetensors(path, {{"old", Tensor::zeros({100})}}, {});
    write_safetensors(path, {{"new", Tensor::from_values({1}, {7.0f})}}, {});
    const SafetensorsFile f = read_safetensors(path);
    QCOMPARE(int(f.tensors.size()), 1);
    QCOMPARE(f.find("new")->at({0}), 7.0f);
    QVERIFY(f.metadata.empty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"w.safetensors"});
}

void TestSafetensors::write_error_midway_removes_temp_file()
{
#ifdef Q_OS_UNIX
    // A file-size limit makes the data write itself fail after the temp file exists (even for root).
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.safetensors").toStdString();
    rlimit saved{};
    QVERIFY(getrlimit(RLIMIT_FSIZE, &saved) == 0);
    auto* previous = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = saved;
    small.rlim_cur = 4096;
    QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
    const QString error = error_of([&] { write_safetensors(path, {{"w", Tensor::zeros({100000})}}, {}); });
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous);
    QVERIFY2(error.contains("failed (File too large)"), qPrintable(error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{});
#else
    QSKIP("needs RLIMIT_FSIZE");
#endif
}

void TestSafetensors::tensors_come_in_data_order()
{
    // The reference writer sorts header keys by name; the data order is what the file really has.
    QTemporaryDir dir;
    QFile out(dir.filePath("sorted.safetensors"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(safetensors_bytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]},)"
                                R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})",
                                QByteArray::fromHex("803f00c0"
                                                    "0000c03f")));
    out.close();
    const SafetensorsFile f = read_safetensors(out.fileName().toStdString());
    QCOMPARE(f.tensors.at(0).first, std::string("b"));
    QCOMPARE(f.tensors.at(0).second.to_vector(), (std::vector<float>{1.0f, -2.0f}));
    QCOMPARE(f.tensors.at(1).first, std::string("a"));
    QCOMPARE(f.tensors.at(1).second.to_vector(), (std::vector<float>{1.5f}));
    QCOMPARE(f.dtypes, (std::map<std::string, std::string>{{"a", "F32"}, {"b", "BF16"}}));
}

void TestSafetensors::malformed_file_is_refused_data()
{
    QTest::addColumn<QByteArray>("content"); // written to `path` when it is bad.safetensors
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    const QByteArray f32x2 = R"("t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})";
    const QString bad = "bad.safetensors";
    // One tensor "t" with these header fields, over an 8-byte data area.
    auto one = [](const char* fields) {
        return safetensors_bytes(QByteArray("{\"t\":{") + fields + "}}", QByteArray(8, 0));
    };
    QTest::newRow("missing") << QByteArray() << "absent.safetensors"
                             << "does not exist";
    QTest::newRow("directory") << QByteArray() << ""
                               << "is a directory";
    QTest::newRow("empty") << QByteArray() << bad << "too short (0 bytes)";
    QTest::newRow("short-length") << QByteArray(5, '\x01') << bad << "too short (5 bytes)";
    QTest::newRow("huge-header") << safetensors_bytes("{}", {}, qint64(1) << 40) << bad << "beyond the 100 MB";
    QTest::newRow("truncated-header") << safetensors_bytes("{}", {}, 64) << bad << "but only 2 bytes follow";
    QTest::newRow("bad-json") << safetensors_bytes("{\"t\":", {}) << bad << "not valid JSON";
    QTest::newRow("not-object") << safetensors_bytes("[1, 2]", {}) << bad << "not an object";
    QTest::newRow("duplicate") << safetensors_bytes("{" + f32x2 + "," + f32x2 + "}", QByteArray(8, 0)) << bad
                               << "'t' twice";
    QTest::newRow("no-offsets") << one(R"("dtype":"F32","shape":[2])") << bad
                                << "without dtype, shape and data_offsets";
    QTest::newRow("unknown-dtype") << one(R"("dtype":"Q7","shape":[2],"data_offsets":[0,8])") << bad
                                   << "unknown dtype 'Q7'; supported dtypes are F32, F16, BF16 and F64";
    QTest::newRow("integer-dtype") << one(R"("dtype":"I64","shape":[1],"data_offsets":[0,8])") << bad
                                   << "integer dtype I64";
    QTest::newRow("negative-dim") << one(R"("dtype":"F32","shape":[-2],"data_offsets":[0,8])") << bad
                                  << "non-negative integer";
    QTest::newRow("fractional-dim") << one(R"("dtype":"F32","shape":[1.5],"data_offsets":[0,8])") << bad
                                    << "non-negative integer";
    QTest::newRow("numel-overflow") << one(R"("dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8])")
                                    << bad << "more elements than any file can hold";
    QTest::newRow("reversed-offsets") << one(R"("dtype":"F32","shape":[2],"data_offsets":[8,0])") << bad
                                      << "0 <= begin <= end";
    QTest::newRow("offsets-outside") << one(R"("dtype":"F32","shape":[2],"data_offsets":[8,16])") << bad
                                     << "outside the data area, which holds 8 bytes";
    QTest::newRow("overlap") << safetensors_bytes(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                                  R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                                                  QByteArray(12, 0))
                             << bad << "'a' and 'b' whose data overlap";
    QTest::newRow("size-mismatch") << one(R"("dtype":"F32","shape":[3],"data_offsets":[0,8])") << bad
                                   << "needs 12 bytes, but its data_offsets span 8 bytes";
    QTest::newRow("metadata-number") << safetensors_bytes(R"({"__metadata__":{"seed":123}})", {}) << bad
                                     << "metadata values must be strings";
    QTest::newRow("two-dtypes") << one(R"("dtype":"F32","dtype":"F16","shape":[2],"data_offsets":[0,8])") << bad
                                << "'t' that gives \"dtype\" twice; each field may appear once";
    QTest::newRow("two-offsets") << one(R"("dtype":"F32","shape":[2],"data_offsets":[0,8],"data_offsets":[0,8])") << bad
                                 << "gives \"data_offsets\" twice";
    QTest::newRow("two-metadata-keys") << safetensors_bytes(R"({"__metadata__":{"k":"a","k":"b"}})", {}) << bad
                                       << "__metadata__ key 'k' twice";
    QTest::newRow("nul-in-name") << safetensors_bytes(R"({"a\u0000b":{"dtype":"Q7","shape":[2],"data_offsets":[0,8]}})",
                                                      QByteArray(8, 0))
                                 << bad << "tensor 'a\\x00b' the unknown dtype";
    QTest::newRow("nested-offsets") << one(R"("dtype":"F32","shape":[2],"data_offsets":[[0],8])") << bad
                                    << "data_offsets a nested list";
    QTest::newRow("long-shape")
        << one(R"("dtype":"F32","shape":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,)"
               R"(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],)"
               R"("data_offsets":[0,8])")
        << bad << "with 66 dimensions";
}

void TestSafetensors::malformed_file_is_refused()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, path);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString full = dir.filePath(path);
    if (path.endsWith("bad.safetensors")) {
        QFile out(full);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(content), content.size());
    }
    const QString error = error_of([&] { read_safetensors(full.toStdString()); });
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.contains(full), qPrintable(error)); // the sentence names the file
}

void TestSafetensors::opening_reads_only_what_is_asked_for()
{
    // "b" claims bytes past the file's end once the file is cut: opening checks the header against the file as it
    // was, reading "b" finds it changed, and "a" still reads, because nothing else was read with it.
    QTemporaryDir dir;
    const QString path = dir.filePath("lazy.safetensors");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(safetensors_bytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                                QByteArray::fromHex("0000c03f0000803f000000c0")));
    out.close();
    const SafetensorsFile f = open_safetensors(path.toStdString());
    QVERIFY(f.tensors.empty());
    QCOMPARE(int(f.entries.size()), 2);
    QCOMPARE(f.entry("b")->shape, (Shape{2}));
    QVERIFY(f.entry("c") == nullptr && f.find("c") == nullptr);
    QVERIFY(QFile::resize(path, out.size() - 8));
    QCOMPARE(f.find("a")->to_vector(), (std::vector<float>{1.5f}));
    QCOMPARE(f.find("a"), f.find("a")); // read once, then kept
    const QString error = error_of([&] { f.find("b"); });
    QVERIFY2(error.contains("could not be read to the end"), qPrintable(error));
}

void TestSafetensors::in_memory_and_opened_files_agree()
{
    const QString path = golden("book_toy.safetensors");
    const SafetensorsFile memory = parse_safetensors(read_bytes(path).toStdString(), path.toStdString());
    const SafetensorsFile opened = open_safetensors(path.toStdString());
    QCOMPARE(memory.tensors.size(), opened.entries.size());
    QCOMPARE(memory.metadata, opened.metadata);
    for (const auto& [name, tensor] : memory.tensors) {
        QCOMPARE(opened.find(name)->to_vector(), tensor.to_vector());
        QCOMPARE(opened.take(name).shape(), tensor.shape());
    }
}

void TestSafetensors::printable_name_escapes_and_cuts()
{
    QCOMPARE(printable_name(std::string("a\0b\n", 4)), std::string("a\\x00b\\x0a"));
    QCOMPARE(printable_name("W_query.weight"), std::string("W_query.weight"));
    QCOMPARE(printable_name(std::string(500, 'n')), std::string(120, 'n') + "... (380 more characters)");
    // A cut never splits a UTF-8 character: 119 ASCII bytes then a two-byte character at the limit.
    QCOMPARE(printable_name(std::string(119, 'n') + "\xc3\xa9" + "tail"),
             std::string(119, 'n') + "\xc3\xa9... (4 more characters)");
    // Bytes that are not UTF-8 are escaped too: the sentence stays UTF-8.
    QCOMPARE(printable_name("w\xff"), std::string("w\\xff"));
}

QTEST_GUILESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
