#include "lessons/class_code.h"

#include "forward/stage_names.h"
#include "tensor/error.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <new>
#include <tuple>

namespace attnlab {

namespace {

ClassRecording compare_one(const std::string& path, std::int64_t num_heads)
{
    ClassRecording out{path, std::nullopt, {}};
    // One student's broken file must not hide the other thirty-nine: every refusal becomes its sentence.
    try {
        out.comparison = compare_recording_file(path, num_heads);
    } catch (const Error& e) {
        out.error = e.what();
    } catch (const std::bad_alloc&) {
        out.error = std::string("'") + path + "' needs more memory than there is to compare.";
    } catch (const std::exception& e) {
        out.error = std::string("'") + path + "' stopped the comparison (" + e.what() + ").";
    }
    return out;
}

std::string too_many(std::size_t n)
{
    return std::to_string(n) + " recordings are more than the " + std::to_string(kClassCodeMaxFiles) +
           " a class summary takes; split them into folders.";
}

} // namespace

int class_stage_rank(const std::string& stage)
{
    if (stage == "config")
        return -1;
    std::string name = stage;
    if (name.starts_with("heads.")) // a wrapper's head: heads.0.attn_scores.masked sorts at attn_scores.masked
        if (const auto dot = name.find('.', 6); dot != std::string::npos)
            name = name.substr(dot + 1);
    const auto it = std::find(stage::all.begin(), stage::all.end(), name);
    return it == stage::all.end() ? static_cast<int>(stage::all.size()) : static_cast<int>(it - stage::all.begin());
}

std::vector<std::string> class_recording_files(const std::string& folder)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw Error(std::string("'") + folder + "' is not a folder of recordings.");
    std::vector<std::string> files;
    fs::directory_iterator it(folder, ec);
    if (ec)
        throw Error(std::string("'") + folder + "' cannot be listed (" + ec.message() + ").");
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            throw Error(std::string("'") + folder + "' cannot be listed (" + ec.message() + ").");
        if (it->path().extension() == ".safetensors" && !it->is_directory(ec)) {
            files.push_back(it->path().string());
            // Stop counting early: a folder of a million files should be refused, not listed.
            if (files.size() > kClassCodeMaxFiles)
                throw Error(std::string("'") + folder + "' holds more than " + std::to_string(kClassCodeMaxFiles) +
                            " recordings, more than a class summary takes; split them into folders.");
        }
    }
    if (files.empty())
        throw Error(std::string("'") + folder + "' holds no .safetensors recordings.");
    std::sort(files.begin(), files.end());
    return files;
}

ClassCode compare_class(const std::vector<std::string>& paths, std::int64_t num_heads)
{
    if (paths.empty())
        throw Error("there are no recordings to compare.");
    if (paths.size() > kClassCodeMaxFiles)
        throw Error(too_many(paths.size()));
    ClassCode out;
    out.recordings.reserve(paths.size());
    for (const std::string& path : paths)
        out.recordings.push_back(compare_one(path, num_heads));
    for (std::size_t i = 0; i < out.recordings.size(); ++i) {
        const ClassRecording& r = out.recordings[i];
        if (!r.comparison) {
            out.unreadable.push_back(i);
            continue;
        }
        if (!r.comparison->first) {
            out.matching.push_back(i);
            continue;
        }
        const RecordingDivergence& d = *r.comparison->first;
        auto group = std::find_if(out.groups.begin(), out.groups.end(),
                                  [&d](const ClassDivergenceGroup& g) { return g.stage == d.stage && g.bug == d.bug; });
        if (group == out.groups.end())
            group = out.groups.insert(out.groups.end(), ClassDivergenceGroup{d.stage, d.bug, {}});
        group->recordings.push_back(i);
    }
    // The stage table's order, so the tally reads like the forward; within a stage the known bugs, the most
    // common first (what to go over with the class), and the unrecognised mistakes last.
    std::stable_sort(
        out.groups.begin(), out.groups.end(), [](const ClassDivergenceGroup& a, const ClassDivergenceGroup& b) {
            const auto key = [](const ClassDivergenceGroup& g) {
                return std::make_tuple(class_stage_rank(g.stage), std::cref(g.stage), g.bug.empty(),
                                       -static_cast<std::ptrdiff_t>(g.recordings.size()), std::cref(g.bug));
            };
            return key(a) < key(b);
        });
    return out;
}

} // namespace attnlab
