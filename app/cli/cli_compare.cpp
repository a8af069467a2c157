// attention-lab-cli compare FILE: a learner's recorded module (resources/pytorch/attention_lab_probe.py)
// against the book's stages on the same weights and input; the first stage where it leaves the book.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "lessons/bugs.h"
#include "lessons/class_code.h"
#include "lessons/compare_recording.h"
#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cli {

using namespace attnlab;

namespace {

nlohmann::ordered_json divergence_json(const RecordingDivergence& d)
{
    using Json = nlohmann::ordered_json;
    Json out = {{"stage", d.stage}, {"kind", d.kind}};
    out["line"] = d.line >= 0 ? Json(d.line) : Json(nullptr);
    out["scope"] = d.scope;
    out["variable"] = d.variable.empty() ? Json(nullptr) : Json(d.variable);
    out["bug"] = d.bug.empty() ? Json(nullptr) : Json(d.bug);
    out["source"] = d.source;
    out["recorded_shape"] =
        d.recorded_shape.empty() && d.kind != "values" && d.kind != "shape" ? Json(nullptr) : Json(d.recorded_shape);
    out["book_shape"] = d.stage == "config" ? Json(nullptr) : Json(d.book_shape);
    out["nearest"] = {{"stage", d.nearest.stage}, {"shape", d.nearest.shape}};
    out["nearest"]["max_abs_diff"] = d.nearest.max_abs_diff ? Json(*d.nearest.max_abs_diff) : Json(nullptr);
    out["error"] = d.error.empty() ? Json(nullptr) : Json(d.error);
    out["message"] = describe_difference(d);
    return out;
}

void print_text(const std::string& file, const RecordingComparison& r)
{
    std::cout << file << ": your " << r.recorded_class << " read as " << r.owner << " " << r.module;
    if (r.problem.empty())
        std::cout << " (" << positional_call(r.config) << ")";
    std::cout << "\n";
    if (!r.first) {
        std::cout << "No divergence: every stage of the book's forward is reached with the book's values.\n";
        return;
    }
    const RecordingDivergence& d = *r.first;
    if (!r.problem.empty())
        std::cout << "The book's module cannot run here: " << r.problem << "\n";
    for (const StageReach& s : r.stages) { // the book's stages beside the learner's lines, up to the divergence
        char row[160];
        std::snprintf(row, sizeof row, "  %-28s %-16s ", s.stage.c_str(), shape_to_string(s.shape).c_str());
        std::cout << row;
        if (s.stage == d.stage) {
            std::cout << "<- first divergence\n";
            break;
        }
        std::cout << "line " << s.line << (s.scope.empty() ? "" : " in " + s.scope) << "  "
                  << (s.held_by >= 0 ? s.variable : "(computed inline)") << "\n";
    }
    std::cout << "First divergence: " << d.stage << " (" << d.kind << ")";
    if (d.line >= 0)
        std::cout << " at line " << d.line << (d.scope.empty() ? "" : " in " + d.scope);
    std::cout << "\n";
    if (!d.source.empty()) {
        std::string source = d.source;
        for (std::size_t at = 0; (at = source.find('\n', at)) != std::string::npos; at += 5)
            source.replace(at, 1, "\n    ");
        std::cout << "    " << source << "\n";
    }
    std::cout << describe_difference(d) << "\n";
    if (!d.bug.empty()) {
        const BugInfo& info = bug_info(bug_from_name(d.bug));
        std::cout << "This is the lab's known bug " << d.bug << ": " << info.title << ".\n"
                  << "  book: " << info.book_line << "\n  bug:  " << info.buggy_line << "\n"
                  << "  Try it: attention-lab-cli diagnose --call \"" << positional_call(r.config) << "\" --bug "
                  << d.bug << "\n";
    }
}

// The class's code (compare FILE... | DIR --summary): one line per recording and the tally by stage and known bug.
// Recordings are "recording N" unless --names: a teacher projecting the tally shows no student's name. A file
// that could not be read is named all the same, since the teacher has to find it; the reader's sentence names it.
std::string recording_label(const ClassCode& c, std::size_t i, bool names)
{
    return names ? c.recordings[i].path : std::string("recording ") + std::to_string(i + 1);
}

std::string unreadable_sentence(const ClassRecording& r)
{
    return r.error.find(r.path) == std::string::npos ? std::string("'") + r.path + "': " + r.error : r.error;
}

std::string group_bug_text(const ClassDivergenceGroup& g)
{
    if (g.bug.empty())
        return "no known bug";
    return g.bug + ", " + bug_info(bug_from_name(g.bug)).title;
}

std::string recording_numbers(const std::vector<std::size_t>& recordings)
{
    std::string out = recordings.size() == 1 ? "recording " : "recordings ";
    for (std::size_t k = 0; k < recordings.size(); ++k)
        out += std::string(k ? ", " : "") + std::to_string(recordings[k] + 1);
    return out;
}

void print_class_text(const ClassCode& c, bool names)
{
    const std::size_t n = c.recordings.size();
    std::cout << "The class's code: " << n << (n == 1 ? " recording" : " recordings") << " against the book's stages"
              << (names ? ".\n" : " (anonymised: --names shows the file names).\n");
    std::size_t width = 0;
    for (std::size_t i = 0; i < n; ++i)
        width = std::max(width, recording_label(c, i, names).size());
    for (std::size_t i = 0; i < n; ++i) {
        const ClassRecording& r = c.recordings[i];
        std::string label = recording_label(c, i, names);
        label.resize(width, ' ');
        std::cout << "  " << label << "  ";
        if (!r.comparison) {
            std::cout << "could not be read: " << unreadable_sentence(r) << "\n";
            continue;
        }
        if (!r.comparison->first) {
            std::cout << "matches the book (" << r.comparison->module << ")\n";
            continue;
        }
        const RecordingDivergence& d = *r.comparison->first;
        std::cout << "first diverges at " << d.stage << " (" << d.kind << ")";
        if (d.line >= 0)
            std::cout << ", line " << d.line << (d.scope.empty() ? "" : std::string(" in ") + d.scope);
        std::cout << (d.bug.empty() ? "" : std::string(": ") + d.bug) << "\n";
    }
    std::cout << "Tally:\n";
    if (!c.matching.empty())
        std::cout << "  " << c.matching.size() << (c.matching.size() == 1 ? " matches" : " match") << " the book ("
                  << recording_numbers(c.matching) << ")\n";
    for (const ClassDivergenceGroup& g : c.groups)
        std::cout << "  " << g.recordings.size() << " at " << g.stage << ": " << group_bug_text(g) << " ("
                  << recording_numbers(g.recordings) << ")\n";
    if (!c.unreadable.empty())
        std::cout << "  " << c.unreadable.size() << " could not be read (" << recording_numbers(c.unreadable) << ")\n";
}

nlohmann::ordered_json class_json(const ClassCode& c, bool names)
{
    using Json = nlohmann::ordered_json;
    Json out = {{"recordings", c.recordings.size()}, {"read", c.read()}, {"names", names}};
    Json files = Json::array();
    for (std::size_t i = 0; i < c.recordings.size(); ++i) {
        const ClassRecording& r = c.recordings[i];
        Json f = {{"recording", i + 1}};
        f["file"] = names || !r.comparison ? Json(r.path) : Json(nullptr);
        f["status"] = !r.comparison ? "unreadable" : r.comparison->first ? "diverges" : "matches";
        f["module"] = r.comparison ? Json(r.comparison->module) : Json(nullptr);
        f["first_divergence"] =
            r.comparison && r.comparison->first ? divergence_json(*r.comparison->first) : Json(nullptr);
        f["error"] = r.comparison ? Json(nullptr) : Json(unreadable_sentence(r));
        files.push_back(f);
    }
    out["files"] = files;
    const auto numbers = [](const std::vector<std::size_t>& indices) {
        Json list = Json::array();
        for (std::size_t i : indices)
            list.push_back(i + 1);
        return list;
    };
    Json groups = Json::array();
    for (const ClassDivergenceGroup& g : c.groups) {
        Json group = {{"stage", g.stage}, {"count", g.recordings.size()}};
        group["bug"] = g.bug.empty() ? Json(nullptr) : Json(g.bug);
        group["bug_title"] = g.bug.empty() ? Json(nullptr) : Json(bug_info(bug_from_name(g.bug)).title);
        group["recordings"] = numbers(g.recordings);
        groups.push_back(group);
    }
    out["tally"] = {{"matches", {{"count", c.matching.size()}, {"recordings", numbers(c.matching)}}},
                    {"divergences", groups},
                    {"unreadable", {{"count", c.unreadable.size()}, {"recordings", numbers(c.unreadable)}}}};
    return out;
}

int compare_class_summary(const std::vector<std::string>& inputs, const Args& a, std::int64_t heads)
{
    std::vector<std::string> paths;
    for (const std::string& input : inputs) {
        std::error_code ec;
        if (std::filesystem::is_directory(input, ec)) {
            const std::vector<std::string> files = class_recording_files(input);
            paths.insert(paths.end(), files.begin(), files.end());
        } else {
            paths.push_back(input);
        }
        if (paths.size() > kClassCodeMaxFiles)
            break; // compare_class refuses the list in one sentence
    }
    const ClassCode c = compare_class(paths, heads);
    if (c.read() == 0)
        throw Error(c.recordings.size() == 1
                        ? unreadable_sentence(c.recordings.front())
                        : std::string("none of the ") + std::to_string(c.recordings.size()) +
                              " recordings could be read; the first: " + unreadable_sentence(c.recordings.front()));
    const bool names = a.flag("names");
    if (a.flag("json"))
        std::cout << cli::json_text(class_json(c, names)) << "\n";
    else
        print_class_text(c, names);
    return 0;
}

} // namespace

int cmd_compare(const std::vector<std::string>& argv)
{
    // The recordings come first (FILE..., or a DIR), then the options.
    std::size_t first_option = 0;
    while (first_option < argv.size() && !argv[first_option].starts_with("--"))
        ++first_option;
    const std::vector<std::string> inputs(argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(first_option));
    if (inputs.empty())
        throw UsageError("compare needs the recording first: attention-lab-cli compare FILE [--num-heads H] [--json], "
                         "or FILE... | DIR --summary for a class.");
    const Args a({argv.begin() + static_cast<std::ptrdiff_t>(first_option), argv.end()}, {"num-heads"},
                 {"json", "summary", "names"});
    const std::int64_t heads = a.has("num-heads") ? a.integer("num-heads", 0, 1, 1 << 20) : 0;
    if (a.flag("summary"))
        return compare_class_summary(inputs, a, heads);
    // Without --summary one recording's full comparison; several at once would be a wall of stage tables.
    if (inputs.size() > 1)
        throw UsageError("compare shows one recording at a time; add --summary to tally several or a folder.");
    if (a.flag("names"))
        throw UsageError("--names goes with --summary.");
    std::error_code ec;
    if (std::filesystem::is_directory(inputs.front(), ec))
        throw Error(std::string("'") + inputs.front() +
                    "' is a folder; add --summary to tally its recordings, or name one recording.");
    const RecordingComparison r = compare_recording_file(inputs.front(), heads);
    if (a.flag("json")) {
        nlohmann::ordered_json out = {{"file", inputs.front()}, {"module", r.module}, {"class", r.recorded_class}};
        out["call"] = r.problem.empty() ? nlohmann::ordered_json(canonical_call(r.config)) : nullptr;
        out["problem"] = r.problem.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.problem);
        out["first_divergence"] = r.first ? divergence_json(*r.first) : nlohmann::ordered_json(nullptr);
        std::cout << cli::json_text(out) << "\n";
        return 0;
    }
    print_text(inputs.front(), r);
    return 0;
}

} // namespace cli
