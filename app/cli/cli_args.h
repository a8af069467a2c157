#pragma once
// Command-line options of attention-lab-cli: `--name value`, `--name=value` and bare flags.
// Unknown or malformed options are usage errors (exit 2); values that do not make sense for the
// engine are refused input (exit 1). Both carry one sentence.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cli {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Args {
public:
    // `flags` take no value; `repeatable` options may be given more than once.
    Args(const std::vector<std::string>& argv, const std::set<std::string>& options, const std::set<std::string>& flags,
         const std::set<std::string>& repeatable = {});

    bool flag(const std::string& name) const { return flags_.count(name) > 0; }
    bool has(const std::string& name) const { return values_.count(name) > 0; }
    std::string text(const std::string& name, const std::string& fallback = {}) const;
    std::string required(const std::string& name) const; // UsageError when missing
    std::vector<std::string> all(const std::string& name) const;
    // Whole-string integers in [lo, hi]; attnlab::Error (exit 1) naming the option otherwise.
    std::int64_t integer(const std::string& name, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const;
    // Byte sizes such as 2G, 512MiB, 1000000; attnlab::Error otherwise.
    std::uint64_t bytes(const std::string& name, std::uint64_t fallback) const;

private:
    std::map<std::string, std::vector<std::string>> values_;
    std::set<std::string> flags_;
};

std::int64_t parse_integer(const std::string& option, const std::string& text, std::int64_t lo, std::int64_t hi);

} // namespace cli
