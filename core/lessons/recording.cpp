// Reading a recording: the safetensors container first (with BOOL and integer tensors checked but
// skipped, and a size cap per tensor before anything is allocated), then the metadata JSON, every
// field type-checked, since the file comes from a notebook and may be damaged or hand-made.
#include "lessons/recording.h"

#include "io/finite_check.h"
#include "io/safetensors.h"
#include "lessons/recording_detail.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace attnlab {

namespace {

using Json = nlohmann::json;
using detail::malformed;
constexpr const char* kMetadataKey = "attention_lab_recording";
constexpr const char* kFormat = "attention-lab-recording";
// The metadata nests 4 levels (object, events, event, shape); anything deeper is not a recording, and
// copying a value a million levels deep would recurse past the stack.
constexpr std::size_t kMaxNesting = 16;

// Python's json.dumps writes NaN and Infinity, which are not JSON; finds the first one outside a string and
// the field holding it ("\"dropout\" holds NaN"), so the refusal can say where.
std::string non_finite_field(std::string_view text)
{
    std::string_view last_key;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') {
            const std::size_t start = ++i;
            for (; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\')
                    ++i;
            std::size_t next = i + 1;
            while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next])))
                ++next;
            if (next < text.size() && text[next] == ':')
                last_key = text.substr(start, std::min(i, text.size()) - start);
            continue;
        }
        for (const std::string_view token : {"NaN", "-Infinity", "Infinity"})
            if (text.substr(i).starts_with(token))
                return (last_key.empty() ? std::string("a value")
                                         : std::string("\"").append(printable_name(last_key)).append("\"")) +
                       " holds " + std::string(token);
    }
    return {};
}

} // namespace

const RecordedScope* Recording::find_scope(const std::string& scope) const
{
    for (const RecordedScope& s : scopes)
        if (s.scope == scope)
            return &s;
    return nullptr;
}

namespace {

Recording from_file(const SafetensorsFile& file, const std::string& path)
{
    const std::string text = file.meta(kMetadataKey);
    if (text.empty())
        throw Error("'" + path + "' is a safetensors file but not a recording (it has no " + kMetadataKey +
                    " metadata); record your module with attention_lab_probe.py (Help > Record Your Module).");
    if (json_nested_deeper_than(text, kMaxNesting))
        malformed(path, "its metadata nests too deeply");
    const Json meta = Json::parse(text, nullptr, false);
    if (meta.is_discarded())
        if (const std::string field = non_finite_field(text); !field.empty())
            malformed(path, "its metadata's " + field +
                                ", which JSON has no value for (a recorded number must be finite; Python's json.dumps "
                                "writes NaN unless given allow_nan=False)");
    if (meta.is_discarded() || !meta.is_object())
        malformed(path, "its metadata is not a JSON object");
    const detail::Fields top{meta, path, "the recording"};
    if (top.text("format") != kFormat)
        malformed(path, "its format is not " + std::string(kFormat));
    const Json& version = top.get("version");
    if (!version.is_number_integer())
        malformed(path, "its version is not a number");
    // Compared as the number it is: a version beyond int64 read as int64 would look negative.
    if (version.is_number_unsigned() && version.get<std::uint64_t>() > static_cast<std::uint64_t>(kRecordingVersion))
        throw Error("'" + path + "' was recorded in format version " + version.dump() + ", newer than the version " +
                    std::to_string(kRecordingVersion) +
                    " this Attention Lab reads; update Attention Lab or record with its own attention_lab_probe.py.");
    if (version.get<std::int64_t>() < 1)
        malformed(path, "its version is below 1");
    Recording rec;
    rec.path = path;
    try {
        detail::read_metadata(rec, meta, file, path);
    } catch (const Json::exception&) { // a type the checks above did not foresee: still one sentence
        malformed(path, "its metadata has a field of the wrong type");
    }
    // The module's weights, not what its forward computed (masked scores are -inf by design, a buggy stage NaN).
    require_finite("'" + path + "'", rec.parameters);
    return rec;
}

constexpr SafetensorsOptions kOptions{true, kRecordingMaxTensorBytes};

} // namespace

int RecordedScope::forward_offset() const
{
    int line = 0, found = 0;
    for (std::size_t start = 0; start <= source.size(); ++line) {
        const std::size_t end = std::min(source.find('\n', start), source.size());
        const std::size_t text = source.find_first_not_of(" \t", start);
        const std::size_t after = text + 11; // "def forward" then "(" or a space, not "forward_hook"
        if (text < end && source.compare(text, 11, "def forward") == 0 && after < end &&
            (source[after] == '(' || source[after] == ' ' || source[after] == '\t'))
            found = line; // the last one, as Python keeps the last definition
        start = end + 1;
    }
    return found;
}

Recording parse_recording(const std::string& bytes, const std::string& path)
{
    return from_file(parse_safetensors(bytes, path, kOptions), path);
}

Recording read_recording(const std::string& path)
{
    // The reader loads the whole file; refuse a huge one before that (it checks missing files, FIFOs, ...).
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        const auto size = std::filesystem::file_size(path, ec);
        if (!ec && size > kRecordingMaxBytes)
            throw Error("'" + path + "' is " + std::to_string(size / (1024 * 1024)) +
                        " MB, beyond the 1 GB a recording may have; record your module on a shorter input.");
    }
    return from_file(read_safetensors(path, kOptions), path);
}

} // namespace attnlab
