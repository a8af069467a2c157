#include "io/safetensors.h"

#include "io/atomic_file.h"
#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <cstring>
#include <map>
#include <set>

namespace attnlab {

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why)
{
    throw Error("cannot write '" + path + "': " + why);
}

// One JSON string. The header is written as text rather than built as a JSON object: an ordered object
// looks each key up by scanning, which made a dump of N tensors cost N^2.
std::string quoted(const std::string& path, const std::string& text, const char* what)
{
    try {
        return nlohmann::json(text).dump();
    } catch (const nlohmann::json::exception&) {
        refuse(path, std::string(what) + " is not valid UTF-8 text, which a safetensors header must be.");
    }
}

std::string metadata_object(const std::string& path, const std::vector<std::pair<std::string, std::string>>& metadata)
{
    // A key given twice keeps its first place and its last value, as assigning into a JSON object does.
    std::vector<std::pair<std::string, std::string>> entries;
    std::map<std::string, std::size_t> where;
    for (const auto& [key, value] : metadata) {
        const auto [it, fresh] = where.emplace(key, entries.size());
        if (fresh)
            entries.emplace_back(quoted(path, key, "a metadata key"), quoted(path, value, "a metadata value"));
        else
            entries[it->second].second = quoted(path, value, "a metadata value");
    }
    std::string text = "{";
    for (const auto& [key, value] : entries) {
        if (text.size() > 1)
            text += ',';
        text += key;
        text += ':';
        text += value;
    }
    text += '}';
    return text;
}

std::string build_header(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                         const std::vector<std::pair<std::string, std::string>>& metadata)
{
    std::string text = "{";
    if (!metadata.empty()) {
        text += "\"__metadata__\":";
        text += metadata_object(path, metadata);
    }
    std::set<std::string> names;
    std::uint64_t offset = 0;
    for (const auto& [name, tensor] : tensors) {
        if (name.empty() || name == "__metadata__" || !names.insert(name).second)
            refuse(path, "the tensor name '" + name + "' is empty, reserved or used twice; names must be unique.");
        if (!tensor.defined())
            refuse(path, "tensor '" + name + "' holds no data.");
        const std::uint64_t bytes = static_cast<std::uint64_t>(tensor.numel()) * 4;
        if (text.size() > 1)
            text += ',';
        text += quoted(path, name, "the tensor name");
        text += ":{\"dtype\":\"F32\",\"shape\":[";
        const Shape& shape = tensor.shape();
        for (std::size_t d = 0; d < shape.size(); ++d) {
            if (d)
                text += ',';
            text += std::to_string(shape[d]);
        }
        text += "],\"data_offsets\":[";
        text += std::to_string(offset);
        text += ',';
        text += std::to_string(offset + bytes);
        text += "]}";
        offset += bytes;
    }
    text += "}";
    // Pad with spaces so the data starts 8-byte aligned, as the reference implementation does.
    text.append((8 - text.size() % 8) % 8, ' ');
    return text;
}

void write_tensor(AtomicFile& out, const Tensor& tensor)
{
    if (tensor.numel() == 0)
        return;
    if constexpr (std::endian::native == std::endian::little) {
        if (tensor.is_contiguous()) { // the file's bytes are the memory's: no copy
            out.write(tensor.data(), static_cast<std::size_t>(tensor.numel()) * 4);
            return;
        }
    }
    const std::vector<float> values = tensor.to_vector();
    std::vector<unsigned char> bytes(values.size() * 4);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto bits = std::bit_cast<std::uint32_t>(values[i]);
        for (int b = 0; b < 4; ++b)
            bytes[4 * i + b] = static_cast<unsigned char>(bits >> (8 * b));
    }
    out.write(bytes.data(), bytes.size());
}

// The same bytes as write_tensor, appended to a string.
void append_tensor(std::string& out, const Tensor& tensor)
{
    const std::vector<float> values = tensor.to_vector();
    const std::size_t at = out.size();
    out.resize(at + values.size() * 4);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto bits = std::bit_cast<std::uint32_t>(values[i]);
        for (int b = 0; b < 4; ++b)
            out[at + 4 * i + b] = static_cast<char>(static_cast<unsigned char>(bits >> (8 * b)));
    }
}

std::string length_prefix(std::size_t header_size)
{
    std::string prefix(8, '\0');
    for (int i = 0; i < 8; ++i)
        prefix[i] = static_cast<char>(static_cast<unsigned char>(static_cast<std::uint64_t>(header_size) >> (8 * i)));
    return prefix;
}

} // namespace

void write_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                       const std::vector<std::pair<std::string, std::string>>& metadata)
{
    check_write_target(path); // a device, link or folder in the way is refused before the header is built
    const std::string header = build_header(path, tensors, metadata);
    AtomicFile out(path);
    unsigned char prefix[8];
    for (int i = 0; i < 8; ++i)
        prefix[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(header.size()) >> (8 * i));
    out.write(prefix, 8);
    out.write(header);
    for (const auto& [name, tensor] : tensors)
        write_tensor(out, tensor);
    out.commit();
}

std::string safetensors_bytes(const std::vector<std::pair<std::string, Tensor>>& tensors,
                              const std::vector<std::pair<std::string, std::string>>& metadata, const std::string& name)
{
    const std::string header = build_header(name, tensors, metadata);
    std::string out = length_prefix(header.size());
    out += header;
    for (const auto& [tensor_name, tensor] : tensors)
        append_tensor(out, tensor);
    return out;
}

} // namespace attnlab
