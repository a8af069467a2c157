#pragma once
// Temporary files that a signal must not leave behind. While a path is watched, SIGINT, SIGTERM and
// SIGHUP (where the program left them at their default action) first remove it and then end the
// process as the signal would have, so an interrupted write leaves neither a half file nor a stray one.
#include <string>

namespace attnlab::detail {

// Returns a handle for unwatch_temp_file, or -1 when the path cannot be watched (the fixed table is
// full or the path is too long); the write then goes on unwatched, as it did before.
int watch_temp_file(const std::string& path);

// Safe to call with -1. Call it once the file is gone or renamed into place.
void unwatch_temp_file(int handle);

} // namespace attnlab::detail
