#pragma once
// Refused input travels as attnlab::Error: one sentence saying what is wrong, where, and what would
// be valid. Boundaries (CLI, session) catch it and show the sentence; nothing below them prints.
#include <stdexcept>
#include <string>

namespace attnlab {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

} // namespace attnlab
