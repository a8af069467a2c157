#include "io/atomic_file.h"

#include "io/temp_cleanup.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnlab {

namespace detail {
std::string folder_of_path(const std::string& path);            // atomic_file_target.cpp
std::string write_failure(const std::string& doing, int error); // defined here, used there too
} // namespace detail

namespace {

constexpr std::size_t kBufferBytes = 1 << 16;
constexpr std::size_t kLargestWrite = std::size_t{1} << 30; // Linux moves at most ~2 GiB per write()

// What the reader can do about the common failures, appended to the system's own words.
std::string hint(int error)
{
    switch (error) {
    case ENOSPC:
    case EDQUOT: return "; free some space or choose another disk";
    case EROFS: return "; that disk is read-only, so choose a folder on another one";
    case EACCES:
    case EPERM: return "; choose a folder you may write to";
    default: return "";
    }
}

std::string failed(const std::string& doing, int error)
{
    return doing + " failed (" + std::strerror(error) + ")" + hint(error) + ".";
}

} // namespace

std::string detail::write_failure(const std::string& doing, int error)
{
    return failed(doing, error);
}

namespace {

// Unique across processes (the pid) and within one (the counter). The usual name keeps the target's
// name in front so a leftover is easy to place; a name already near the limit gets a short hidden one.
std::string temp_name(const std::string& name, long name_max)
{
    static std::atomic<unsigned> counter{0};
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".tmp-%lx-%x", static_cast<unsigned long>(::getpid()), counter++);
    if (name.size() + std::strlen(suffix) <= static_cast<std::size_t>(name_max))
        return name + suffix;
    return std::string(".attnlab") + suffix;
}

void sync_folder(const std::string& dir)
{
    // Makes the rename itself durable. The file is already in place, so a folder that cannot be
    // synced (some filesystems refuse) is no reason to report the write as failed.
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path))
{
    check_write_target(path_);
    dir_ = detail::folder_of_path(path_);
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        keep_mode_ = st.st_mode & 0777; // never set-user-ID bits on a file this process made
    const auto slash = path_.find_last_of('/');
    const std::string prefix = slash == std::string::npos ? std::string() : path_.substr(0, slash + 1);
    long name_max = ::pathconf(dir_.c_str(), _PC_NAME_MAX);
    if (name_max <= 0)
        name_max = 255;
    int error = EEXIST;
    for (int attempt = 0; attempt < 100 && fd_ < 0 && error == EEXIST; ++attempt) {
        temp_ = prefix + temp_name(path_.substr(prefix.size()), name_max);
        // Watched before it exists, so no moment passes in which a signal would leave it behind.
        watch_ = detail::watch_temp_file(temp_);
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        error = errno;
        if (fd_ < 0) {
            detail::unwatch_temp_file(watch_);
            watch_ = -1;
        }
    }
    if (fd_ < 0) {
        temp_.clear();
        throw WriteError(path_, failed("creating a file in '" + dir_ + "'", error));
    }
    if (keep_mode_ != 0)
        ::fchmod(fd_, keep_mode_); // the replaced file's permissions, as an editor's save keeps them
    buffer_.reserve(kBufferBytes);
}

AtomicFile::~AtomicFile()
{
    discard();
}

void AtomicFile::discard() noexcept
{
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
    if (!temp_.empty())
        ::unlink(temp_.c_str());
    detail::unwatch_temp_file(watch_);
    watch_ = -1;
    temp_.clear();
}

void AtomicFile::fail(const std::string& doing, int error)
{
    discard();
    throw WriteError(path_, failed(doing, error));
}

void AtomicFile::write_through(const char* bytes, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd_, bytes, std::min(size, kLargestWrite));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail("writing the data", n < 0 ? errno : EIO);
        bytes += n;
        size -= static_cast<std::size_t>(n);
    }
}

void AtomicFile::write(const void* bytes, std::size_t size)
{
    if (fd_ < 0)
        throw WriteError(path_, "the file was already finished or given up.");
    const char* from = static_cast<const char*>(bytes);
    if (buffer_.size() + size <= kBufferBytes) {
        buffer_.append(from, size);
        return;
    }
    write_through(buffer_.data(), buffer_.size());
    buffer_.clear();
    if (size >= kBufferBytes)
        write_through(from, size);
    else
        buffer_.append(from, size);
}

void AtomicFile::commit()
{
    if (fd_ < 0)
        throw WriteError(path_, "the file was already finished or given up.");
    write_through(buffer_.data(), buffer_.size());
    buffer_.clear();
    // Durable before the rename publishes it, so a crash never leaves a torn file under the path.
    // A filesystem that cannot sync at all (EINVAL) has nothing more to make durable.
    if (::fsync(fd_) != 0 && errno != EINVAL && errno != ENOTSUP)
        fail("syncing the data to disk", errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 && errno != EINTR) // after EINTR Linux has closed it, and the data is synced
        fail("closing the file", errno);
    if (::rename(temp_.c_str(), path_.c_str()) != 0)
        fail("moving the finished file into place", errno);
    temp_.clear();
    detail::unwatch_temp_file(watch_);
    watch_ = -1;
    sync_folder(dir_);
}

void write_file_atomically(const std::string& path, std::string_view bytes)
{
    AtomicFile file(path);
    file.write(bytes);
    file.commit();
}

} // namespace attnlab
