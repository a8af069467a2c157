#pragma once
// Internal to the recording reader (recording.cpp, recording_metadata.cpp): typed access to the metadata
// JSON, where every miss is a one-sentence refusal naming the field.
#include "io/safetensors.h"
#include "lessons/recording.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace attnlab::detail {

using Json = nlohmann::json;

[[noreturn]] inline void malformed(const std::string& path, const std::string& what)
{
    throw Error("'" + path + "' is damaged: " + what + ", so it is not a recording Attention Lab can read.");
}

struct Fields {
    const Json& json;
    const std::string& path;
    std::string where;

    const Json& get(const char* key) const
    {
        if (!json.is_object() || !json.contains(key))
            malformed(path, where + " has no \"" + key + "\"");
        return json[key];
    }
    std::string text(const char* key, bool nullable = false) const
    {
        const Json& v = get(key);
        if (nullable && v.is_null())
            return {};
        if (!v.is_string())
            malformed(path, where + "'s \"" + key + "\" is not a string");
        return v.get<std::string>();
    }
    std::string optional_text(const char* key) const
    {
        return json.is_object() && json.contains(key) && json[key].is_string() ? json[key].get<std::string>() : "";
    }
    int line(const char* key) const
    {
        const Json& v = get(key);
        if (v.is_null())
            return -1;
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 100'000'000)
            malformed(path, where + "'s \"" + key + "\" is not a line number");
        return static_cast<int>(v.get<std::int64_t>());
    }
    Shape shape(const char* key) const
    {
        const Json& v = get(key);
        if (!v.is_array() || v.size() > 64)
            malformed(path, where + "'s \"" + key + "\" is not a list of sizes");
        Shape s;
        for (const Json& d : v) {
            // Unsigned beyond int64 or negative: no size, and read as int64 it would print as another number.
            if (!d.is_number_integer() || d.get<double>() < 0 ||
                (d.is_number_unsigned() && d.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)))
                malformed(path, where + "'s \"" + key + "\" is not a list of sizes");
            s.push_back(d.get<std::int64_t>());
        }
        return s;
    }
};

// Fills everything but the format and version, which the caller has checked.
void read_metadata(Recording& rec, const Json& meta, const SafetensorsFile& file, const std::string& path);

} // namespace attnlab::detail
