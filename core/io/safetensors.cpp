// Reading a safetensors file: its header at once, each tensor's bytes only when asked for (a command that
// uses three small tensors of a file holding a gigabyte more reads only those), or all of it from memory.
#include "io/safetensors_detail.h"

#include "tensor/error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace attnlab {

namespace detail {

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw Error("'" + path + "' " + what);
}

std::uint64_t load_le(const unsigned char* p, int bytes)
{
    std::uint64_t v = 0;
    for (int i = bytes; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}

void check_header_length(const std::string& path, std::uint64_t header_len, std::uint64_t size)
{
    // A header larger than this is not a weights file we were meant to open; refuse before allocating it.
    if (header_len > 100ull * 1024 * 1024)
        fail(path, "declares a header length of " + std::to_string(header_len) +
                       " bytes, beyond the 100 MB a safetensors header may have; it is probably not a safetensors "
                       "file.");
    if (header_len > size - 8)
        fail(path, "declares a header length of " + std::to_string(header_len) + " bytes, but only " +
                       std::to_string(size - 8) + " bytes follow it (the file is truncated or not safetensors).");
}

namespace {

void decode_into(const std::string& dtype, const unsigned char* bytes, std::size_t count, float* out)
{
    // The dtype is the same for every element: decided once, so a GPT-2 checkpoint's hundreds of millions of
    // values cost a copy, not a string comparison each.
    if (count == 0) // a zero-element tensor may come with no bytes at all, and memcpy from null is undefined
        return;
    if (dtype == "F32" && std::endian::native == std::endian::little) {
        std::memcpy(out, bytes, 4 * count);
        return;
    }
    const bool f32 = dtype == "F32", f64 = dtype == "F64", f16 = dtype == "F16";
    for (std::size_t i = 0; i < count; ++i) {
        if (f32)
            out[i] = std::bit_cast<float>(static_cast<std::uint32_t>(load_le(bytes + 4 * i, 4)));
        else if (f64)
            out[i] = static_cast<float>(std::bit_cast<double>(load_le(bytes + 8 * i, 8)));
        else if (f16)
            out[i] = half_to_float(static_cast<std::uint16_t>(load_le(bytes + 2 * i, 2)));
        else
            out[i] = bfloat16_to_float(static_cast<std::uint16_t>(load_le(bytes + 2 * i, 2)));
    }
}

std::size_t element_size(const std::string& dtype)
{
    return dtype == "F32" ? 4 : dtype == "F64" ? 8 : 2;
}

// Reads one tensor from the open file in slices, so the raw bytes never sit in memory beside the floats.
Tensor load(SafetensorsSource& source, const SafetensorsEntry& e, const std::string& path)
{
    const std::size_t elem = element_size(e.dtype);
    // Decoded straight into the tensor's own storage: no zero-filled vector copied over afterwards.
    Tensor out = Tensor::empty(e.shape);
    const auto total = static_cast<std::size_t>(out.numel());
    std::vector<unsigned char> slice;
    constexpr std::size_t kSliceElements = 1 << 18;
    source.in.clear();
    source.in.seekg(static_cast<std::streamoff>(source.data_offset + e.begin));
    for (std::size_t done = 0; done < total;) {
        const std::size_t count = std::min(kSliceElements, total - done);
        slice.resize(count * elem);
        if (!source.in.read(reinterpret_cast<char*>(slice.data()), static_cast<std::streamsize>(slice.size())))
            fail(path, "could not be read to the end; it may have changed while being read.");
        decode_into(e.dtype, slice.data(), count, out.data() + done);
        done += count;
    }
    return out;
}

} // namespace

Tensor decode(const SafetensorsEntry& e, const unsigned char* bytes)
{
    std::vector<float> values(static_cast<std::size_t>(shape_numel(e.shape)));
    decode_into(e.dtype, bytes, values.size(), values.data());
    return Tensor::from_values(e.shape, std::move(values));
}

} // namespace detail

using detail::fail;

const SafetensorsEntry* SafetensorsFile::entry(const std::string& name) const
{
    for (const SafetensorsEntry& e : entries)
        if (e.name == name)
            return &e;
    return nullptr;
}

const Tensor* SafetensorsFile::find(const std::string& name) const
{
    for (const auto& [n, t] : tensors)
        if (n == name)
            return &t;
    const SafetensorsEntry* e = source ? entry(name) : nullptr;
    if (!e)
        return nullptr;
    const std::lock_guard<std::mutex> lock(source->mutex);
    auto it = source->loaded.find(name);
    if (it == source->loaded.end())
        it = source->loaded.emplace(name, detail::load(*source, *e, path)).first;
    return &it->second;
}

Tensor SafetensorsFile::take(const std::string& name) const
{
    const SafetensorsEntry* e = source ? entry(name) : nullptr;
    if (!e) {
        const Tensor* t = find(name);
        if (!t)
            fail(path, "has no tensor '" + printable_name(name) + "'.");
        return t->clone();
    }
    const std::lock_guard<std::mutex> lock(source->mutex);
    if (const auto it = source->loaded.find(name); it != source->loaded.end())
        return it->second.clone();
    return detail::load(*source, *e, path);
}

std::string SafetensorsFile::meta(const std::string& key, const std::string& fallback) const
{
    for (const auto& [k, v] : metadata)
        if (k == key)
            return v;
    return fallback;
}

SafetensorsFile open_safetensors(const std::string& path, const SafetensorsOptions& options)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec == std::errc::too_many_symbolic_link_levels)
        fail(path, "is a symbolic-link loop (its links lead back to themselves); give the path of a .safetensors "
                   "file.");
    if (ec && status.type() != fs::file_type::not_found)
        fail(path, "cannot be reached (" + ec.message() + "); check the path and the permissions of its folders.");
    if (!fs::exists(status))
        fail(path, "does not exist; give the path of an existing .safetensors file.");
    if (fs::is_directory(status))
        fail(path, "is a directory, not a .safetensors file.");
    // A FIFO or a device would block or never end; only regular files have a size to check against.
    if (!fs::is_regular_file(status))
        fail(path, "is not a regular file (a pipe, socket or device); give the path of a .safetensors file.");
    const std::uint64_t size = fs::file_size(path, ec);
    auto source = std::make_shared<detail::SafetensorsSource>();
    source->in.open(path, std::ios::binary);
    if (ec || !source->in)
        fail(path, "cannot be opened for reading; check that it is a regular file you may read.");
    if (size < 8)
        fail(path, "is too short (" + std::to_string(size) +
                       " bytes) to be safetensors, which starts with an 8-byte header length.");
    // The declared header length is checked before the header is read, so a text file is refused unread.
    unsigned char prefix[8];
    if (!source->in.read(reinterpret_cast<char*>(prefix), 8))
        fail(path, "could not be read to the end; it may have changed while being read.");
    const std::uint64_t header_len = detail::load_le(prefix, 8);
    detail::check_header_length(path, header_len, size);
    std::string header(static_cast<std::size_t>(header_len), '\0');
    if (!source->in.read(header.data(), static_cast<std::streamsize>(header_len)))
        fail(path, "could not be read to the end; it may have changed while being read.");
    source->data_offset = 8 + header_len;
    SafetensorsFile file = detail::read_header(header, path, size - source->data_offset, options);
    file.source = std::move(source);
    return file;
}

SafetensorsFile read_safetensors(const std::string& path, const SafetensorsOptions& options)
{
    SafetensorsFile file = open_safetensors(path, options);
    file.tensors.reserve(file.entries.size());
    for (const SafetensorsEntry& e : file.entries)
        file.tensors.emplace_back(e.name, detail::load(*file.source, e, path));
    file.source.reset(); // everything is in memory: the file need not stay open
    return file;
}

SafetensorsFile parse_safetensors(const std::string& bytes, const std::string& path, const SafetensorsOptions& options)
{
    const std::uint64_t size = bytes.size();
    if (size < 8)
        fail(path, "is too short (" + std::to_string(size) +
                       " bytes) to be safetensors, which starts with an 8-byte header length.");
    const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::uint64_t header_len = detail::load_le(raw, 8);
    detail::check_header_length(path, header_len, size);
    const std::uint64_t data_offset = 8 + header_len;
    SafetensorsFile file = detail::read_header(std::string_view(bytes).substr(8, static_cast<std::size_t>(header_len)),
                                               path, size - data_offset, options);
    for (const SafetensorsEntry& e : file.entries)
        file.tensors.emplace_back(e.name, detail::decode(e, raw + data_offset + e.begin));
    return file;
}

} // namespace attnlab
