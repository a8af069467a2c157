#pragma once
// safetensors I/O: an 8-byte little-endian header length, a JSON header, raw little-endian data.
// Reading converts F32/F16/BF16 (and F64) to float and checks the file before trusting it; writing is atomic
// (temp file + rename), so a failed write leaves nothing behind.
#include "tensor/tensor.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnlab {

struct SafetensorsFile {
    std::vector<std::pair<std::string, Tensor>> tensors; // in header order
    std::vector<std::pair<std::string, std::string>> metadata;
    std::map<std::string, std::string> dtypes; // stored dtype per tensor ("F32", "F16", "BF16"; "BOOL" when skipped)
    std::string path;                          // where it was read from, for messages; may be empty

    const Tensor* find(const std::string& name) const;
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

// Throws Error naming the file and what is wrong: missing/unreadable/directory, empty or truncated,
// header length beyond the file or beyond a sane cap, bad JSON, unknown dtype, offsets outside the
// data area or overlapping, shape x dtype size != byte count.
SafetensorsFile read_safetensors(const std::string& path, const SafetensorsOptions& options = {});
// The same checks on a whole file already in memory; `path` only names it in messages (and in .path).
SafetensorsFile parse_safetensors(const std::string& bytes, const std::string& path,
                                  const SafetensorsOptions& options = {});

// Writes every tensor as F32, contiguous, in the given order. Throws Error (and leaves no file)
// when the write fails.
void write_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                       const std::vector<std::pair<std::string, std::string>>& metadata);

// Conversions used by the reader (exposed for tests).
float half_to_float(std::uint16_t bits);
float bfloat16_to_float(std::uint16_t bits);
// Whether JSON text opens more than `limit` arrays or objects inside one another (strings skipped), checked
// before parsing: copying or printing a value a million levels deep recurses past the stack.
bool json_nested_deeper_than(std::string_view text, std::size_t limit);

} // namespace attnlab
