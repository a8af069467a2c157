#include "io/safetensors.h"

#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace attnlab {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

[[noreturn]] void refuse(const std::string& path, const std::string& why)
{
    throw Error("cannot write '" + path + "': " + why);
}

// Unique within the process (counter) and across processes (clock), so concurrent saves never share a temp file.
std::string temp_path_for(const std::string& path)
{
    static std::atomic<unsigned> counter{0};
    const auto ticks = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    char suffix[40];
    std::snprintf(suffix, sizeof suffix, ".tmp-%llx%x", ticks & 0xFFFFFFFFFFull, counter++);
    return path + suffix;
}

std::string build_header(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                         const std::vector<std::pair<std::string, std::string>>& metadata)
{
    Json header = Json::object();
    if (!metadata.empty()) {
        Json meta = Json::object();
        for (const auto& [key, value] : metadata)
            meta[key] = value;
        header["__metadata__"] = std::move(meta);
    }
    std::set<std::string> names;
    std::uint64_t offset = 0;
    for (const auto& [name, tensor] : tensors) {
        if (name.empty() || name == "__metadata__" || !names.insert(name).second)
            refuse(path, "the tensor name '" + name + "' is empty, reserved or used twice; names must be unique.");
        if (!tensor.defined())
            refuse(path, "tensor '" + name + "' holds no data.");
        const std::uint64_t bytes = static_cast<std::uint64_t>(tensor.numel()) * 4;
        header[name] = {{"dtype", "F32"}, {"shape", tensor.shape()}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    // Pad with spaces so the data starts 8-byte aligned, as the reference implementation does.
    text.append((8 - text.size() % 8) % 8, ' ');
    return text;
}

void write_all(std::FILE* out, const void* bytes, std::size_t size, const std::string& path)
{
    if (size && std::fwrite(bytes, 1, size, out) != size)
        refuse(path, "writing the data failed (" + std::string(std::strerror(errno)) + ").");
}

void write_contents(std::FILE* out, const std::string& path, const std::string& header,
                    const std::vector<std::pair<std::string, Tensor>>& tensors)
{
    unsigned char prefix[8];
    for (int i = 0; i < 8; ++i)
        prefix[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(header.size()) >> (8 * i));
    write_all(out, prefix, 8, path);
    write_all(out, header.data(), header.size(), path);
    for (const auto& [name, tensor] : tensors) {
        const std::vector<float> values = tensor.to_vector();
        std::vector<unsigned char> bytes(values.size() * 4);
        for (std::size_t i = 0; i < values.size(); ++i) {
            const auto bits = std::bit_cast<std::uint32_t>(values[i]);
            for (int b = 0; b < 4; ++b)
                bytes[4 * i + b] = static_cast<unsigned char>(bits >> (8 * b));
        }
        write_all(out, bytes.data(), bytes.size(), path);
    }
    if (std::fflush(out) != 0)
        refuse(path, "flushing the data failed (" + std::string(std::strerror(errno)) + ").");
#ifndef _WIN32
    // Make the bytes durable before the rename publishes them, so a crash never leaves a torn file under `path`.
    if (::fsync(::fileno(out)) != 0)
        refuse(path, "syncing the data to disk failed (" + std::string(std::strerror(errno)) + ").");
#endif
}

} // namespace

void write_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                       const std::vector<std::pair<std::string, std::string>>& metadata)
{
    std::error_code ec;
    const fs::path target(path);
    if (target.filename().empty())
        refuse(path, "the path names a directory, not a file.");
    const fs::path dir = target.parent_path();
    if (!dir.empty() && !fs::is_directory(dir, ec))
        refuse(path, "'" + dir.string() + (fs::exists(dir, ec) ? "' is not a directory." : "' does not exist."));
    if (fs::is_directory(target, ec))
        refuse(path, "a directory of that name is in the way.");
    const std::string header = build_header(path, tensors, metadata);

    const std::string temp = temp_path_for(path);
    std::FILE* out = std::fopen(temp.c_str(), "wbx");
    if (!out)
        refuse(path, "creating a file in '" + (dir.empty() ? std::string(".") : dir.string()) + "' failed (" +
                         std::strerror(errno) + ").");
    try {
        write_contents(out, path, header, tensors);
    } catch (...) {
        std::fclose(out);
        fs::remove(temp, ec);
        throw;
    }
    if (std::fclose(out) != 0) {
        const std::string why = std::strerror(errno);
        fs::remove(temp, ec);
        refuse(path, "closing the file failed (" + why + ").");
    }
    fs::rename(temp, target, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(temp, ec);
        refuse(path, "moving the finished file into place failed (" + why + ").");
    }
}

} // namespace attnlab
