#include "cli/cli_args.h"

#include "tensor/error.h"
#include "text/utf8.h"

#include <cctype>
#include <charconv>
#include <limits>

namespace cli {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& options,
           const std::set<std::string>& flags, const std::set<std::string>& repeatable)
{
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.rfind("--", 0) != 0)
            throw UsageError("unexpected argument '" + attnlab::printable(arg) + "'; options start with --.");
        std::string name = arg.substr(2), value;
        bool inline_value = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inline_value = true;
        }
        if (flags.count(name)) {
            if (inline_value)
                throw UsageError("--" + name + " takes no value.");
            flags_.insert(name);
            continue;
        }
        if (!options.count(name))
            throw UsageError("unknown option --" + attnlab::printable(name, 40) +
                             "; `attention-lab-cli <command> --help` lists a command's options.");
        if (!inline_value) {
            if (i + 1 >= argv.size())
                throw UsageError("--" + name + " needs a value.");
            value = argv[++i];
        }
        if (values_.count(name) && !repeatable.count(name))
            throw UsageError("--" + name + " is given twice.");
        values_[name].push_back(value);
    }
}

std::string Args::text(const std::string& name, const std::string& fallback) const
{
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second.back();
}

std::string Args::required(const std::string& name) const
{
    if (!has(name))
        throw UsageError("--" + name + " is required.");
    return text(name);
}

std::vector<std::string> Args::all(const std::string& name) const
{
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

namespace {

// A bound as a reader takes it in: the seeds' 2^63 - 1 rather than nineteen digits.
std::string bound_text(std::int64_t v)
{
    if (v == std::numeric_limits<std::int64_t>::max())
        return "2^63 - 1";
    if (v == std::numeric_limits<std::int64_t>::min())
        return "-2^63";
    return std::to_string(v);
}

} // namespace

std::int64_t parse_integer(const std::string& option, const std::string& text, std::int64_t lo, std::int64_t hi)
{
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    const std::string range = "a whole number from " + bound_text(lo) + " to " + bound_text(hi);
    if (ec == std::errc::result_out_of_range)
        throw attnlab::Error("--" + option + " " + attnlab::printable(text, 40) + " is too large; give " + range + ".");
    if (ec != std::errc() || ptr != end || text.empty())
        throw attnlab::Error("--" + option + " '" + attnlab::printable(text, 40) + "' is not a whole number; give " +
                             range + ".");
    if (value < lo || value > hi)
        throw attnlab::Error("--" + option + " " + attnlab::printable(text, 40) + " is out of range; give " + range +
                             ".");
    return value;
}

std::int64_t Args::integer(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const
{
    return has(name) ? parse_integer(name, text(name), lo, hi) : fallback;
}

std::uint64_t Args::bytes(const std::string& name, std::uint64_t fallback) const
{
    if (!has(name))
        return fallback;
    std::string t = text(name);
    std::size_t digits = 0;
    while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits])))
        ++digits;
    std::string unit = t.substr(digits);
    for (auto& ch : unit)
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const std::map<std::string, std::uint64_t> units = {{"", 1},
                                                        {"B", 1},
                                                        {"K", 1ull << 10},
                                                        {"KB", 1ull << 10},
                                                        {"KIB", 1ull << 10},
                                                        {"M", 1ull << 20},
                                                        {"MB", 1ull << 20},
                                                        {"MIB", 1ull << 20},
                                                        {"G", 1ull << 30},
                                                        {"GB", 1ull << 30},
                                                        {"GIB", 1ull << 30}};
    auto it = units.find(unit);
    if (digits == 0 || it == units.end())
        throw attnlab::Error("--" + name + " '" + attnlab::printable(t, 40) +
                             "' is not a size; give bytes such as 2G, 512M or 1000000.");
    const std::int64_t n = parse_integer(name, t.substr(0, digits), 1, (std::int64_t{1} << 50));
    if (static_cast<std::uint64_t>(n) > (std::uint64_t{1} << 50) / it->second)
        throw attnlab::Error("--" + name + " " + attnlab::printable(t, 40) +
                             " is too large; give at most 1048576G (2^50 bytes).");
    return static_cast<std::uint64_t>(n) * it->second;
}

} // namespace cli
