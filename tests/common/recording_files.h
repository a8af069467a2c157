#pragma once
// Recordings for the Compare With My Code tests: the corpus the student_recordings ctest fixture writes
// (tests/reference/make_student_recordings.py, run by Debian's python3-torch), and hand-made bad files.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cstdint>

// Where the fixture wrote NAME.safetensors per case (ATTNLAB_STUDENT_RECORDINGS_DIR from tests/CMakeLists.txt).
inline QString recording_path(const QString& name)
{
    return QDir(ATTNLAB_STUDENT_RECORDINGS_DIR).filePath(name + ".safetensors");
}

// tests/data/student_modules/expected.json's cases.
inline QJsonArray student_cases()
{
    QFile f(QString(ATTNLAB_TEST_DATA_DIR) + "/student_modules/expected.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object()["cases"].toArray();
}

// A safetensors file: 8-byte little-endian header length, the header (padded to 8), then `data`.
inline QByteArray safetensors_bytes(const QJsonObject& header, const QByteArray& data = {})
{
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while ((8 + json.size()) % 8)
        json += ' ';
    QByteArray out(8, '\0');
    const std::uint64_t n = static_cast<std::uint64_t>(json.size());
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return out + json + data;
}

// A recording's metadata with one input tensor "input" of shape (1, 2, 3) and nothing else.
inline QJsonObject minimal_recording_metadata(int version = 1)
{
    return QJsonObject{{"format", "attention-lab-recording"},
                       {"version", version},
                       {"class", "MultiHeadAttention"},
                       {"attributes", QJsonObject{}},
                       {"input", QJsonObject{{"tensor", "input"}}},
                       {"state", QJsonArray{}},
                       {"scopes", QJsonArray{}},
                       {"events", QJsonArray{}},
                       {"error", QJsonValue::Null}};
}

// A whole file around that metadata; `extra` entries join the header (e.g. a 1 GB tensor).
inline QByteArray recording_bytes(const QJsonObject& metadata, const QJsonObject& extra = {})
{
    QJsonObject header = extra;
    header["input"] =
        QJsonObject{{"dtype", "F32"}, {"shape", QJsonArray{1, 2, 3}}, {"data_offsets", QJsonArray{0, 24}}};
    header["__metadata__"] = QJsonObject{
        {"attention_lab_recording", QString::fromUtf8(QJsonDocument(metadata).toJson(QJsonDocument::Compact))}};
    return safetensors_bytes(header, QByteArray(24, '\0'));
}

inline bool write_file(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}
