// attention-lab-cli compare FILE: a learner's recorded module (resources/pytorch/attention_lab_probe.py)
// against the book's stages on the same weights and input; the first stage where it leaves the book.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "lessons/bugs.h"
#include "lessons/compare_recording.h"
#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
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
    std::cout << file << ": your " << r.recorded_class << " read as the book's " << r.module;
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

} // namespace

int cmd_compare(const std::vector<std::string>& argv)
{
    if (argv.empty() || argv.front().starts_with("--"))
        throw UsageError("compare needs the recording first: attention-lab-cli compare FILE [--num-heads H] [--json].");
    const Args a({argv.begin() + 1, argv.end()}, {"num-heads"}, {"json"});
    const std::int64_t heads = a.has("num-heads") ? a.integer("num-heads", 0, 1, 1 << 20) : 0;
    const RecordingComparison r = compare_recording_file(argv.front(), heads);
    if (a.flag("json")) {
        nlohmann::ordered_json out = {{"file", argv.front()}, {"module", r.module}, {"class", r.recorded_class}};
        out["call"] = r.problem.empty() ? nlohmann::ordered_json(canonical_call(r.config)) : nullptr;
        out["problem"] = r.problem.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.problem);
        out["first_divergence"] = r.first ? divergence_json(*r.first) : nlohmann::ordered_json(nullptr);
        std::cout << cli::json_text(out) << "\n";
        return 0;
    }
    print_text(argv.front(), r);
    return 0;
}

} // namespace cli
