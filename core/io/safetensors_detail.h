#pragma once
// Internal to the safetensors reader: the header as one pass of the JSON parser leaves it, the checks
// that turn it into entries, and the open file that lazily read tensors come from.
#include "io/safetensors.h"

#include <cstdint>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::detail {

// A JSON value as the checks and their messages need it: scalars in full, lists by their size and first
// items. Nothing deeper is kept, so a hostile header costs no more memory than its entries.
struct JsonValue {
    enum class Kind { Null, Boolean, Negative, Unsigned, Float, String, List, Object };
    Kind kind = Kind::Null;
    std::string text;             // a string's content, or a scalar's JSON text
    std::uint64_t number = 0;     // an Unsigned's value
    std::vector<JsonValue> items; // a list's first items (enough to quote it); nested lists and objects left out
    std::uint64_t size = 0;       // a list's item count
    bool nested = false;          // a list holding a list or an object
};

struct RawEntry {
    std::string name;
    bool is_object = false;
    std::optional<JsonValue> dtype, shape, data_offsets; // other fields are skipped
};

struct RawHeader {
    bool is_object = false;
    bool metadata_is_object = true;
    std::vector<RawEntry> entries; // header order
    std::vector<std::pair<std::string, JsonValue>> metadata;
    std::string duplicate; // the first name or field given twice, as the end of a sentence
};

// One linear pass over the header text; false when it is not valid JSON.
bool parse_header_json(std::string_view text, RawHeader& header);
// How a message quotes a value: flat values in full up to a length, nested ones by kind.
std::string brief(const JsonValue& value);

[[noreturn]] void fail(const std::string& path, const std::string& what);
std::uint64_t load_le(const unsigned char* p, int bytes);
void check_header_length(const std::string& path, std::uint64_t header_len, std::uint64_t size);
// Parses and checks a header whose data area holds `data_size` bytes: entries, metadata and dtypes filled.
SafetensorsFile read_header(std::string_view text, const std::string& path, std::uint64_t data_size,
                            const SafetensorsOptions& options);
Tensor decode(const SafetensorsEntry& entry, const unsigned char* bytes);

struct SafetensorsSource {
    std::ifstream in;
    std::uint64_t data_offset = 0;
    std::mutex mutex; // guards `in` and `loaded`: the same file may be read from more than one thread
    std::map<std::string, Tensor> loaded;
};

} // namespace attnlab::detail
