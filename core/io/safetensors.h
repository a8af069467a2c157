#pragma once
// safetensors I/O: an 8-byte little-endian header length, a JSON header, raw little-endian data.
// Reading converts F32/F16/BF16 (and F64) to float and checks the file before trusting it; writing is atomic
// (temp file + rename), so a failed write leaves nothing behind.
#include "tensor/tensor.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnlab {

namespace detail {
struct SafetensorsSource; // the open file a lazily read SafetensorsFile decodes its tensors from
}

// One tensor as the header describes it: checked against the file, its bytes not yet read.
struct SafetensorsEntry {
    std::string name;
    std::string dtype;
    Shape shape;
    std::uint64_t begin = 0, end = 0; // within the data area
};

struct SafetensorsFile {
    // Decoded tensors in data order: filled by read_safetensors and parse_safetensors, left empty by
    // open_safetensors (whose find() reads each tensor when first asked for).
    std::vector<std::pair<std::string, Tensor>> tensors;
    std::vector<SafetensorsEntry> entries; // every float tensor in data order, header information only
    std::vector<std::pair<std::string, std::string>> metadata;
    std::map<std::string, std::string> dtypes; // stored dtype per tensor ("F32", "F16", "BF16"; "BOOL" when skipped)
    std::string path;                          // where it was read from, for messages; may be empty
    std::shared_ptr<detail::SafetensorsSource> source; // set by open_safetensors

    // A float tensor's header entry, without reading its data (nullptr when the file has none by that name).
    const SafetensorsEntry* entry(const std::string& name) const;
    // A float tensor, decoded; reads it from the file the first time when the file was opened lazily. Throws
    // Error when the file can no longer be read.
    const Tensor* find(const std::string& name) const;
    // A float tensor the caller owns, independent of the file's storage; read from the file and not kept when
    // the file was opened lazily, so the weights a loader takes are in memory once. Throws Error when absent.
    Tensor take(const std::string& name) const;
    std::string meta(const std::string& key, const std::string& fallback = {}) const;
};

// What a reader other than the weights loader accepts. The defaults are the weights loader's rules.
struct SafetensorsOptions {
    // Integer and BOOL tensors (a recorded mask) are checked like any other, then left out of `tensors`
    // (their dtype stays in `dtypes`): the engine computes in float only.
    bool skip_non_float = false;
    // When non-zero, a tensor whose bytes exceed it is refused from the header, before anything is allocated.
    std::uint64_t max_tensor_bytes = 0;
};

// Throws Error naming the file and what is wrong: missing/unreadable/directory/symbolic-link loop, empty or
// truncated, header length beyond the file or beyond a sane cap, bad JSON, duplicate names or fields, unknown
// dtype, offsets outside the data area or overlapping, shape x dtype size != byte count.
// open_safetensors reads and checks the header only and keeps the file open: a tensor's bytes are read when
// find() first asks for it, so a command reads only what it uses.
SafetensorsFile open_safetensors(const std::string& path, const SafetensorsOptions& options = {});
// open_safetensors, then every float tensor decoded into `tensors`.
SafetensorsFile read_safetensors(const std::string& path, const SafetensorsOptions& options = {});
// The same checks on a whole file already in memory; `path` only names it in messages (and in .path).
SafetensorsFile parse_safetensors(const std::string& bytes, const std::string& path,
                                  const SafetensorsOptions& options = {});

// Writes every tensor as F32, contiguous, in the given order. Throws Error (and leaves no file)
// when the write fails.
void write_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                       const std::vector<std::pair<std::string, std::string>>& metadata);
// The bytes write_safetensors would write, in memory (a file kept inside another, such as a session's models);
// `name` only names it in messages. Throws Error as write_safetensors does for a bad name or tensor.
std::string safetensors_bytes(const std::vector<std::pair<std::string, Tensor>>& tensors,
                              const std::vector<std::pair<std::string, std::string>>& metadata,
                              const std::string& name);

// Conversions used by the reader (exposed for tests).
float half_to_float(std::uint16_t bits);
float bfloat16_to_float(std::uint16_t bits);
// Whether JSON text opens more than `limit` arrays or objects inside one another (strings skipped), checked
// before parsing: copying or printing a value a million levels deep recurses past the stack.
bool json_nested_deeper_than(std::string_view text, std::size_t limit);
// A name from a file as a message quotes it: text/utf8.h's printable() at 120 characters (control bytes
// and bytes that are not UTF-8 as \xNN; callers that list names unquoted say when one is empty).
std::string printable_name(std::string_view name);

} // namespace attnlab
