#include "io/safetensors.h"

#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

namespace attnlab {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// A header larger than this is not a weights file we were meant to open; refuse before allocating it.
constexpr std::uint64_t kHeaderCap = 100ull * 1024 * 1024;
// PyTorch's own limit on the number of dimensions.
constexpr std::size_t kMaxDims = 64;
// How deeply a header's lists and objects may nest (a valid one needs 3).
constexpr std::size_t kMaxNesting = 16;

struct Entry {
    std::string name;
    std::string dtype;
    Shape shape;
    std::uint64_t begin = 0, end = 0;
};

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

// A header value or name as messages quote it: flat values in full up to a length, nested ones by kind
// (dump() recurses, and a hostile header can nest a million levels deep), control bytes replaced.
std::string clipped(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size() && i < 60; ++i)
        out += static_cast<unsigned char>(text[i]) < 0x20 || text[i] == 0x7f ? '?' : text[i];
    return text.size() > 60 ? out + "..." : out;
}

std::string brief(const Json& value)
{
    if (value.is_array())
        for (const Json& item : value)
            if (item.is_structured())
                return "a nested list";
    if (value.is_object())
        return "an object";
    return clipped(value.dump(-1, ' ', false, Json::error_handler_t::replace));
}

bool is_float_dtype(const std::string& dtype)
{
    return dtype == "F32" || dtype == "F16" || dtype == "BF16" || dtype == "F64";
}

int dtype_size(const std::string& path, const std::string& name, const std::string& dtype, bool allow_integers)
{
    if (dtype == "F32")
        return 4;
    if (dtype == "F16" || dtype == "BF16")
        return 2;
    if (dtype == "F64")
        return 8;
    if (allow_integers && (dtype == "I64"))
        return 8;
    if (allow_integers && dtype == "I32")
        return 4;
    if (allow_integers && dtype == "I16")
        return 2;
    if (allow_integers && (dtype == "I8" || dtype == "U8" || dtype == "BOOL"))
        return 1;
    if (dtype == "I64" || dtype == "I32" || dtype == "I16" || dtype == "I8" || dtype == "U8" || dtype == "BOOL")
        fail(path, "stores tensor '" + clipped(name) + "' as integer dtype " + dtype +
                       ", but attention weights and inputs must be floating point (F32, F16, BF16 or F64).");
    fail(path, "gives tensor '" + clipped(name) + "' the unknown dtype '" + clipped(dtype) +
                   "'; supported dtypes are F32, F16, BF16 and F64.");
}

Entry parse_entry(const std::string& path, const std::string& name, const Json& value, std::uint64_t data_size,
                  const SafetensorsOptions& options)
{
    const std::string where = "has a header entry '" + clipped(name) + "' ";
    if (!value.is_object() || !value.contains("dtype") || !value.contains("shape") || !value.contains("data_offsets"))
        fail(path, where + "without dtype, shape and data_offsets; each tensor entry needs all three.");
    if (!value["dtype"].is_string())
        fail(path, where + "whose dtype is not a string such as \"F32\".");
    Entry e{name, value["dtype"].get<std::string>(), {}, 0, 0};
    const std::uint64_t elem = static_cast<std::uint64_t>(dtype_size(path, name, e.dtype, options.skip_non_float));

    const Json& shape = value["shape"];
    if (!shape.is_array())
        fail(path, where + "whose shape is not a list of non-negative integers.");
    if (shape.size() > kMaxDims)
        fail(path, where + "with " + std::to_string(shape.size()) + " dimensions; a tensor may have at most " +
                       std::to_string(kMaxDims) + ".");
    std::uint64_t numel = 1;
    for (const Json& d : shape) {
        if (!d.is_number_integer() || d.get<std::int64_t>() < 0)
            fail(path, where + "with shape " + brief(shape) + "; every dimension must be a non-negative integer.");
        const auto dim = d.get<std::uint64_t>();
        if (dim != 0 && numel > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / elem / dim)
            fail(path, where + "with shape " + brief(shape) + ", which has more elements than any file can hold.");
        numel *= dim;
        e.shape.push_back(static_cast<std::int64_t>(dim));
    }
    // Before the offsets: a header may promise a huge tensor in a small file, and the message should say so.
    if (options.max_tensor_bytes > 0 && numel * elem > options.max_tensor_bytes)
        fail(path, where + "of shape " + shape_to_string(e.shape) + ", which takes " +
                       std::to_string(numel * elem / (1024 * 1024)) + " MB, beyond the " +
                       std::to_string(options.max_tensor_bytes / (1024 * 1024)) + " MB allowed per tensor.");

    const Json& offsets = value["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
        !offsets[1].is_number_unsigned() || offsets[0].get<std::uint64_t>() > offsets[1].get<std::uint64_t>())
        fail(path,
             where + "with data_offsets " + brief(offsets) + "; they must be [begin, end] with 0 <= begin <= end.");
    e.begin = offsets[0].get<std::uint64_t>();
    e.end = offsets[1].get<std::uint64_t>();
    if (e.end > data_size)
        fail(path, where + "with data_offsets " + brief(offsets) + " outside the data area, which holds " +
                       std::to_string(data_size) + " bytes (the file may be truncated).");
    if (e.end - e.begin != numel * elem)
        fail(path, where + "of shape " + shape_to_string(e.shape) + " and dtype " + e.dtype + ", which needs " +
                       std::to_string(numel * elem) + " bytes, but its data_offsets span " +
                       std::to_string(e.end - e.begin) + " bytes.");
    return e;
}

void check_header_length(const std::string& path, std::uint64_t header_len, std::uint64_t size)
{
    if (header_len > kHeaderCap)
        fail(path, "declares a header length of " + std::to_string(header_len) +
                       " bytes, beyond the 100 MB a "
                       "safetensors header may have; it is probably not a safetensors file.");
    if (header_len > size - 8)
        fail(path, "declares a header length of " + std::to_string(header_len) + " bytes, but only " +
                       std::to_string(size - 8) + " bytes follow it (the file is truncated or not safetensors).");
}

Tensor decode(const Entry& e, const unsigned char* bytes)
{
    std::vector<float> values(static_cast<std::size_t>(shape_numel(e.shape)));
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (e.dtype == "F32")
            values[i] = std::bit_cast<float>(static_cast<std::uint32_t>(load_le(bytes + 4 * i, 4)));
        else if (e.dtype == "F64")
            values[i] = static_cast<float>(std::bit_cast<double>(load_le(bytes + 8 * i, 8)));
        else if (e.dtype == "F16")
            values[i] = half_to_float(static_cast<std::uint16_t>(load_le(bytes + 2 * i, 2)));
        else
            values[i] = bfloat16_to_float(static_cast<std::uint16_t>(load_le(bytes + 2 * i, 2)));
    }
    return Tensor::from_values(e.shape, std::move(values));
}

} // namespace

float half_to_float(std::uint16_t bits)
{
    const std::uint32_t sign = (bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    const std::uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0) { // zero or subnormal: mantissa * 2^-24, exact in float
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31) // inf, or NaN keeping its payload
        return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bfloat16_to_float(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

const Tensor* SafetensorsFile::find(const std::string& name) const
{
    for (const auto& [n, t] : tensors)
        if (n == name)
            return &t;
    return nullptr;
}

std::string SafetensorsFile::meta(const std::string& key, const std::string& fallback) const
{
    for (const auto& [k, v] : metadata)
        if (k == key)
            return v;
    return fallback;
}

SafetensorsFile read_safetensors(const std::string& path, const SafetensorsOptions& options)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status))
        fail(path, "does not exist; give the path of an existing .safetensors file.");
    if (fs::is_directory(status))
        fail(path, "is a directory, not a .safetensors file.");
    // A FIFO or a device would block or never end; only regular files have a size to check against.
    if (!fs::is_regular_file(status))
        fail(path, "is not a regular file (a pipe, socket or device); give the path of a .safetensors file.");
    const std::uint64_t size = fs::file_size(path, ec);
    std::ifstream in(path, std::ios::binary);
    if (ec || !in)
        fail(path, "cannot be opened for reading; check that it is a regular file you may read.");
    if (size < 8)
        fail(path, "is too short (" + std::to_string(size) +
                       " bytes) to be safetensors, which starts with an 8-byte "
                       "header length.");
    // Check the declared header length before reading the rest, so a text file is refused without loading it.
    unsigned char prefix[8];
    if (!in.read(reinterpret_cast<char*>(prefix), 8))
        fail(path, "could not be read to the end; it may have changed while being read.");
    check_header_length(path, load_le(prefix, 8), size);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    std::memcpy(bytes.data(), prefix, 8);
    in.read(bytes.data() + 8, static_cast<std::streamsize>(size - 8));
    if (!in || in.gcount() != static_cast<std::streamsize>(size - 8))
        fail(path, "could not be read to the end; it may have changed while being read.");
    return parse_safetensors(bytes, path, options);
}

SafetensorsFile parse_safetensors(const std::string& bytes, const std::string& path, const SafetensorsOptions& options)
{
    const std::uint64_t size = bytes.size();
    if (size < 8)
        fail(path, "is too short (" + std::to_string(size) +
                       " bytes) to be safetensors, which starts with an 8-byte "
                       "header length.");
    const std::uint64_t header_len = load_le(reinterpret_cast<const unsigned char*>(bytes.data()), 8);
    check_header_length(path, header_len, size);
    const std::string header = bytes.substr(8, static_cast<std::size_t>(header_len));
    const std::uint64_t data_offset = 8 + header_len;
    const std::uint64_t data_size = size - data_offset;
    const unsigned char* data = reinterpret_cast<const unsigned char*>(bytes.data()) + data_offset;

    // A header nests 3 levels (object, entry, shape list). Deeper ones are refused before parsing: nlohmann's
    // parser copes, but copying or printing a value a million levels deep recurses past the stack.
    if (json_nested_deeper_than(header, kMaxNesting))
        fail(path, "has a header nested more than " + std::to_string(kMaxNesting) +
                       " levels deep; a safetensors header maps tensor names to flat entries.");

    // Duplicate keys would silently collapse in the parsed object, so spot them while parsing.
    std::string duplicate;
    std::set<std::string> keys;
    auto spot_duplicates = [&](int depth, Json::parse_event_t event, Json& parsed) {
        if (depth == 1 && event == Json::parse_event_t::key && !keys.insert(parsed.get<std::string>()).second)
            duplicate = parsed.get<std::string>();
        return true;
    };
    const Json json = Json::parse(header, spot_duplicates, false);
    if (json.is_discarded())
        fail(path, "has a header that is not valid JSON; a safetensors header is a JSON object of tensor entries.");
    if (!json.is_object())
        fail(path, "has a JSON header that is not an object; a safetensors header maps tensor names to entries.");
    if (!duplicate.empty())
        fail(path, "names '" + clipped(duplicate) + "' twice in its header; tensor names must be unique.");

    SafetensorsFile file;
    file.path = path;
    std::vector<Entry> entries;
    for (const auto& [name, value] : json.items()) {
        if (name != "__metadata__") {
            entries.push_back(parse_entry(path, name, value, data_size, options));
            continue;
        }
        if (!value.is_object())
            fail(path, "has a __metadata__ entry that is not an object; it must map strings to strings.");
        for (const auto& [key, text] : value.items()) {
            if (!text.is_string())
                fail(path, "has __metadata__ key '" + clipped(key) + "' with value " + brief(text) +
                               "; metadata values must be strings.");
            file.metadata.emplace_back(key, text.get<std::string>());
        }
    }

    // Header order is not guaranteed (the reference writer sorts keys); data order is the file's own.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i].begin < entries[i - 1].end)
            fail(path, "has tensors '" + clipped(entries[i - 1].name) + "' and '" + clipped(entries[i].name) +
                           "' whose data overlap; each tensor needs its own byte range.");
    for (const Entry& e : entries) {
        file.dtypes[e.name] = e.dtype;
        if (is_float_dtype(e.dtype)) // only integers get this far when skip_non_float is off
            file.tensors.emplace_back(e.name, decode(e, data + e.begin));
    }
    return file;
}

bool json_nested_deeper_than(std::string_view text, std::size_t limit)
{
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (in_string) {
            if (ch == '\\')
                ++i;
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if ((ch == '[' || ch == '{') && ++depth > limit) {
            return true;
        } else if ((ch == ']' || ch == '}') && depth > 0) {
            --depth;
        }
    }
    return false;
}

} // namespace attnlab
