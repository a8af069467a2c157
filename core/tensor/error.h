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

// Thrown by a computation whose caller asked it to stop (ForwardOptions::cancel). A type of its own,
// so callers can tell "stopped on request" from "refused", and a partial result never escapes.
class Cancelled : public Error {
public:
    Cancelled() : Error("the computation was cancelled before it finished.") {}
};

} // namespace attnlab
