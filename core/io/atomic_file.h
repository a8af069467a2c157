#pragma once
// The one way the programs write a file: dumps, sessions, pictures, exports, copies. Afterwards the
// path holds either the whole new file or, after any failure, exactly what it held before; no torn,
// empty or temporary file is left, not even when SIGINT, SIGTERM or SIGHUP cut the write short.
// Only a regular file (or a path where nothing is yet) is ever replaced: a device, a FIFO, a socket,
// a directory or a symbolic link at the path is refused before anything is written.
#include "tensor/error.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace attnlab {

// "cannot write 'PATH': REASON" -- reason() alone for callers that say the path their own way.
class WriteError : public Error {
public:
    WriteError(const std::string& path, const std::string& reason)
        : Error("cannot write '" + path + "': " + reason), reason_(reason)
    {
    }
    const std::string& reason() const { return reason_; }

private:
    std::string reason_;
};

// Throws WriteError unless `path` may be written: its folder exists and it is a regular file or
// nothing. AtomicFile checks this itself; callers may ask first to refuse before long work.
void check_write_target(const std::string& path);

// Bytes go to a temporary file beside the target; commit() flushes, syncs and renames it over the
// target (then syncs the folder). Destroyed without commit(), or on any failure (which throws
// WriteError), the temporary file is removed and the target is untouched.
class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(const void* bytes, std::size_t size);
    void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
    void commit();

    const std::string& path() const { return path_; }
    const std::string& temp_path() const { return temp_; }

private:
    [[noreturn]] void fail(const std::string& doing, int error);
    void write_through(const char* bytes, std::size_t size);
    void discard() noexcept;

    std::string path_, dir_, temp_;
    int fd_ = -1;
    int watch_ = -1;
    unsigned keep_mode_ = 0; // the replaced file's permissions, 0 for a new file
    std::string buffer_;     // small writes are gathered so a header of many entries costs few calls
};

// The whole of `bytes` as the new content of `path`, through AtomicFile.
void write_file_atomically(const std::string& path, std::string_view bytes);

} // namespace attnlab
