// `handout`: Predict First's questions on a call's stages, for a class to answer away from the app: a GIFT quiz
// (Moodle imports it) or a page to print with the answers after a page break. The answers are the trace's own.
#include "cli/cli_commands.h"

#include "call/python_repr.h"
#include "io/atomic_file.h"
#include "lessons/predict.h"
#include "poll/gift_quiz.h"
#include "poll/handout_page.h"
#include "tensor/error.h"
#include "text/utf8.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace cli {

using namespace attnlab;

namespace {

// "a,b,c" as stage names, each once, in the order given.
std::vector<std::string> stage_list(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string name; std::getline(in, name, ',');) {
        if (name.empty())
            throw Error("--stages has an empty name; give stage names joined by commas, such as "
                        "queries.view,attn_scores.masked.");
        if (std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(name);
    }
    return out;
}

} // namespace

int cmd_handout(const std::vector<std::string>& argv)
{
    std::set<std::string> options = run_options();
    options.erase("dump");
    options.insert({"stages", "gift", "html", "category"});
    Args a(argv, options, {});
    if (a.has("gift") == a.has("html"))
        throw UsageError("give --gift FILE (a quiz Moodle imports) or --html FILE (a page to print), one of them.");
    const std::string out = a.has("gift") ? a.text("gift") : a.text("html");
    if (a.has("category") && a.has("html")) // the page has no category: said, not silently dropped
        throw UsageError("--category names the quiz's category in an LMS; the --html page has none, so give it with "
                         "--gift only.");
    // The category is one GIFT line: a line break would start a question of its own.
    if (a.has("category")) {
        const std::string& c = a.text("category");
        if (c.empty() || c.size() > 200 ||
            std::any_of(c.begin(), c.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; }))
            throw Error("--category " + printable(c, 40) +
                        " is not one line of 1 to 200 characters; give a name such as \"week 3/attention\".");
    }
    const Experiment experiment = prepare(run_spec_from(a));
    check_write_target(out); // before the forward pass, as run --dump does
    const Trace trace = run(experiment);
    std::vector<poll::Question> questions;
    if (a.has("stages"))
        for (const std::string& name : stage_list(a.text("stages")))
            questions.push_back(poll::from_stage(trace, question_for(trace, name)));
    else
        questions = poll::every_stage(trace);
    const std::string call = positional_call(trace.config); // as a student types it
    if (a.has("gift"))
        write_file_atomically(out, poll::gift_quiz(a.has("category")
                                                       ? a.text("category")
                                                       : "attention-lab/" + module_class_name(trace.config.kind),
                                                   questions));
    else
        write_file_atomically(
            out, poll::handout_page(call + (a.has("stages") ? ": predict these stages" : ": predict every stage"),
                                    questions));
    std::size_t asked = 0; // GIFT asks each field on its own
    for (const poll::Question& q : questions)
        asked += q.fields.size();
    std::cout << questions.size() << " stages of " << call << " written to " << out;
    if (a.has("gift"))
        std::cout << " as " << asked << " quiz questions";
    std::cout << "\n";
    return 0;
}

} // namespace cli
