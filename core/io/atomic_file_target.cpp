// What may stand at a path the programs write: a regular file or nothing, in a folder that exists.
// Everything else is refused by name before a byte is written, since a rename would replace it.
#include "io/atomic_file.h"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace attnlab {

namespace detail {
std::string folder_of_path(const std::string& path);            // shared with atomic_file.cpp
std::string write_failure(const std::string& doing, int error); // "doing failed (why); what to do."
} // namespace detail

namespace {

std::string folder_of(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string what_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

void check_folder(const std::string& path, const std::string& dir)
{
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            throw WriteError(path, "'" + dir + "' is not a directory.");
        // A folder that takes no new file (read-only disk, no permission) or a disk with no room left is found now,
        // not after a long run (train trained 5 s, or a whole sweep, then failed to save).
        if (::access(dir.c_str(), W_OK | X_OK) != 0)
            throw WriteError(path, detail::write_failure("creating a file in '" + dir + "'", errno));
        struct statvfs disk {};
        if (::statvfs(dir.c_str(), &disk) == 0 && disk.f_blocks > 0 && disk.f_bavail == 0)
            throw WriteError(path, "the disk holding '" + dir + "' has no space left (" + std::strerror(ENOSPC) +
                                       "); free some space or choose another disk.");
        return;
    }
    const int e = errno;
    if (e == ENOENT)
        throw WriteError(path, "'" + dir + "' does not exist.");
    if (e == ENOTDIR)
        throw WriteError(path, "'" + dir + "' is not a directory.");
    if (e == ELOOP)
        throw WriteError(path, "'" + dir + "' goes round a loop of symbolic links.");
    throw WriteError(path, "its folder '" + dir + "' cannot be reached (" + std::strerror(e) + ").");
}

} // namespace

std::string detail::folder_of_path(const std::string& path)
{
    return folder_of(path);
}

void check_write_target(const std::string& path)
{
    if (path.empty())
        throw WriteError(path, "the path is empty; give the path of a file.");
    if (path.back() == '/')
        throw WriteError(path, "the path names a directory, not a file.");
    check_folder(path, folder_of(path));
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        const int e = errno;
        if (e == ENOENT)
            return; // a new file
        if (e == ELOOP)
            throw WriteError(path, "the path goes round a loop of symbolic links.");
        throw WriteError(path, std::string("the path cannot be examined (") + std::strerror(e) + ").");
    }
    if (S_ISREG(st.st_mode))
        return;
    if (S_ISDIR(st.st_mode))
        throw WriteError(path, "a directory of that name is in the way.");
    if (S_ISLNK(st.st_mode)) {
        struct stat target {};
        if (::stat(path.c_str(), &target) != 0 && errno == ELOOP)
            throw WriteError(path, "it is a symbolic link that loops back on itself, not a regular file; "
                                   "remove the link or choose another name.");
        throw WriteError(path, "it is a symbolic link, which would be replaced rather than written through; "
                               "give the path of the file it points to, or another name.");
    }
    throw WriteError(path, "it is " + what_kind(st.st_mode) +
                               ", not a regular file; give the path of a regular file or of a new one.");
}

} // namespace attnlab
