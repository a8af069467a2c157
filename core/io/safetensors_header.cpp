// Checking a parsed safetensors header against its file before any tensor is trusted: every entry's
// dtype, shape and offsets, the data area they must fit in, and that no two tensors share bytes.
#include "io/safetensors_detail.h"

#include <algorithm>
#include <limits>

namespace attnlab::detail {

namespace {

using Kind = JsonValue::Kind;

// PyTorch's own limit on the number of dimensions.
constexpr std::size_t kMaxDims = 64;
// How deeply a header's lists and objects may nest (a valid one needs 3).
constexpr std::size_t kMaxNesting = 16;

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
        fail(path, "stores tensor '" + printable_name(name) + "' as integer dtype " + dtype +
                       ", but attention weights and inputs must be floating point (F32, F16, BF16 or F64).");
    fail(path, "gives tensor '" + printable_name(name) + "' the unknown dtype '" + printable_name(dtype) +
                   "'; supported dtypes are F32, F16, BF16 and F64.");
}

bool is_offset(const JsonValue& v)
{
    return v.kind == Kind::Unsigned;
}

SafetensorsEntry check_entry(const std::string& path, const RawEntry& raw, std::uint64_t data_size,
                             const SafetensorsOptions& options)
{
    const std::string where = "has a header entry '" + printable_name(raw.name) + "' ";
    if (!raw.is_object || !raw.dtype || !raw.shape || !raw.data_offsets)
        fail(path, where + "without dtype, shape and data_offsets; each tensor entry needs all three.");
    if (raw.dtype->kind != Kind::String)
        fail(path, where + "whose dtype is not a string such as \"F32\".");
    SafetensorsEntry e{raw.name, raw.dtype->text, {}, 0, 0};
    const std::uint64_t elem = static_cast<std::uint64_t>(dtype_size(path, raw.name, e.dtype, options.skip_non_float));

    const JsonValue& shape = *raw.shape;
    if (shape.kind != Kind::List)
        fail(path, where + "whose shape is not a list of non-negative integers.");
    if (shape.size > kMaxDims)
        fail(path, where + "with " + std::to_string(shape.size) + " dimensions; a tensor may have at most " +
                       std::to_string(kMaxDims) + ".");
    constexpr auto kMaxCount = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (shape.nested)
        fail(path, where + "with shape " + brief(shape) + "; every dimension must be a non-negative integer.");
    std::uint64_t numel = 1;
    for (const JsonValue& d : shape.items) {
        if (d.kind != Kind::Unsigned || d.number > kMaxCount)
            fail(path, where + "with shape " + brief(shape) + "; every dimension must be a non-negative integer.");
        if (d.number != 0 && numel > kMaxCount / elem / d.number)
            fail(path, where + "with shape " + brief(shape) + ", which has more elements than any file can hold.");
        numel *= d.number;
        e.shape.push_back(static_cast<std::int64_t>(d.number));
    }
    // Before the offsets: a header may promise a huge tensor in a small file, and the message should say so.
    if (options.max_tensor_bytes > 0 && numel * elem > options.max_tensor_bytes)
        fail(path, where + "of shape " + shape_to_string(e.shape) + ", which takes " +
                       std::to_string(numel * elem / (1024 * 1024)) + " MB, beyond the " +
                       std::to_string(options.max_tensor_bytes / (1024 * 1024)) + " MB allowed per tensor.");

    const JsonValue& offsets = *raw.data_offsets;
    if (offsets.kind != Kind::List || offsets.size != 2 || offsets.nested || !is_offset(offsets.items[0]) ||
        !is_offset(offsets.items[1]) || offsets.items[0].number > offsets.items[1].number)
        fail(path,
             where + "with data_offsets " + brief(offsets) + "; they must be [begin, end] with 0 <= begin <= end.");
    e.begin = offsets.items[0].number;
    e.end = offsets.items[1].number;
    if (e.end > data_size)
        fail(path, where + "with data_offsets " + brief(offsets) + " outside the data area, which holds " +
                       std::to_string(data_size) + " bytes (the file may be truncated).");
    if (e.end - e.begin != numel * elem)
        fail(path, where + "of shape " + shape_to_string(e.shape) + " and dtype " + e.dtype + ", which needs " +
                       std::to_string(numel * elem) + " bytes, but its data_offsets span " +
                       std::to_string(e.end - e.begin) + " bytes.");
    return e;
}

} // namespace

SafetensorsFile read_header(std::string_view text, const std::string& path, std::uint64_t data_size,
                            const SafetensorsOptions& options)
{
    // A header nests 3 levels (object, entry, shape list); a deeper one is no safetensors header.
    if (json_nested_deeper_than(text, kMaxNesting))
        fail(path, "has a header nested more than " + std::to_string(kMaxNesting) +
                       " levels deep; a safetensors header maps tensor names to flat entries.");
    RawHeader header;
    if (!parse_header_json(text, header))
        fail(path, "has a header that is not valid JSON; a safetensors header is a JSON object of tensor entries.");
    if (!header.is_object)
        fail(path, "has a JSON header that is not an object; a safetensors header maps tensor names to entries.");
    if (!header.duplicate.empty())
        fail(path, header.duplicate);

    SafetensorsFile file;
    file.path = path;
    if (!header.metadata_is_object)
        fail(path, "has a __metadata__ entry that is not an object; it must map strings to strings.");
    std::vector<SafetensorsEntry> entries;
    entries.reserve(header.entries.size());
    for (const RawEntry& raw : header.entries)
        entries.push_back(check_entry(path, raw, data_size, options));
    for (const auto& [key, value] : header.metadata) {
        if (value.kind != Kind::String)
            fail(path, "has __metadata__ key '" + printable_name(key) + "' with value " + brief(value) +
                           "; metadata values must be strings.");
        file.metadata.emplace_back(key, value.text);
    }

    // Header order is not guaranteed (the reference writer sorts keys); data order is the file's own.
    std::stable_sort(entries.begin(), entries.end(),
                     [](const SafetensorsEntry& a, const SafetensorsEntry& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < entries.size(); ++i)
        if (entries[i].begin < entries[i - 1].end)
            fail(path, "has tensors '" + printable_name(entries[i - 1].name) + "' and '" +
                           printable_name(entries[i].name) +
                           "' whose data overlap; each tensor needs its own byte range.");
    for (SafetensorsEntry& e : entries) {
        file.dtypes[e.name] = e.dtype;
        if (is_float_dtype(e.dtype)) // only integers get this far when skip_non_float is off
            file.entries.push_back(std::move(e));
    }
    return file;
}

} // namespace attnlab::detail
