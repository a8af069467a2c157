#pragma once
// safetensors files made at run time for the tests of what a reader reads: a state dict of small F32
// tensors and, when asked, one more tensor of a gigabyte that nobody uses, its data a hole in a sparse
// file (no disk is used), so a reader that loads the whole file shows in the peak memory.
#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace testing {

inline constexpr std::uint64_t kHugeBytes = 1ull << 30;

struct Spec {
    QString name;
    QList<std::uint64_t> shape;
};

// A safetensors file of F32 tensors (filled with small values) in the given order, then, when `huge` is set,
// one more tensor of a gigabyte that nobody uses, its data a hole in the file.
inline bool write_tensors(const QString& path, const QList<Spec>& tensors, bool huge)
{
    QByteArray header = "{", data;
    for (const Spec& t : tensors) {
        std::uint64_t numel = 1;
        QStringList dims;
        for (std::uint64_t d : t.shape) {
            numel *= d;
            dims << QString::number(d);
        }
        const std::uint64_t begin = static_cast<std::uint64_t>(data.size());
        for (std::uint64_t i = 0; i < numel; ++i) {
            const float v = 0.01f * static_cast<float>(i % 17);
            data.append(reinterpret_cast<const char*>(&v), 4);
        }
        header += QStringLiteral("\"%1\":{\"dtype\":\"F32\",\"shape\":[%2],\"data_offsets\":[%3,%4]},")
                      .arg(t.name, dims.join(','))
                      .arg(begin)
                      .arg(data.size())
                      .toUtf8();
    }
    const std::uint64_t end = static_cast<std::uint64_t>(data.size()) + (huge ? kHugeBytes : 0);
    if (huge)
        header += QStringLiteral("\"unused\":{\"dtype\":\"F32\",\"shape\":[%1],\"data_offsets\":[%2,%3]},")
                      .arg(kHugeBytes / 4)
                      .arg(data.size())
                      .arg(end)
                      .toUtf8();
    header.chop(1);
    header += "}";
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((static_cast<std::uint64_t>(header.size()) >> (8 * i)) & 0xff);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(out + header + data) != out.size() + header.size() + data.size())
        return false;
    return f.resize(static_cast<qint64>(8 + header.size() + end)); // the gigabyte is a hole: no disk is used
}

inline QList<Spec> mha_state_dict()
{
    return {{"W_query.weight", {2, 3}},
            {"W_key.weight", {2, 3}},
            {"W_value.weight", {2, 3}},
            {"out_proj.weight", {2, 2}},
            {"out_proj.bias", {2}}};
}

} // namespace testing
