#pragma once
// The one way the CLI prints JSON. A path or text from the command line may hold bytes that are not
// UTF-8 (a file name is any bytes but '/' and NUL); nlohmann's default dump throws on them, so they
// are printed as U+FFFD instead: the output stays valid JSON and the command still answers.
#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace cli {

inline std::string json_text(const nlohmann::ordered_json& value)
{
    return value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace cli
