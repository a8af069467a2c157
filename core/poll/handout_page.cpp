#include "poll/handout_page.h"

namespace attnlab::poll {

namespace {

const char* const kStyle = R"(<style>
  body { font-family: "DejaVu Sans", sans-serif; font-size: 11pt; max-width: 48em; margin: 2em auto; color: #111; }
  h1 { font-size: 15pt; } h2 { font-size: 13pt; margin-top: 1.6em; }
  .question { break-inside: avoid; margin: 1.2em 0; }
  .given { color: #444; font-size: 10pt; } pre { background: #f2f2f2; padding: 0.3em 0.6em; white-space: pre-wrap; }
  .blank { display: inline-block; min-width: 8em; border-bottom: 1px solid #111; margin-left: 0.5em; }
  table.grid td { width: 1.6em; height: 1.6em; border: 1px solid #555; text-align: center; font-size: 8pt; color: #999; }
  .answers { break-before: page; } .name { float: right; }
  @page { margin: 15mm; }
</style>)";

std::string answer_space(const Field& f)
{
    switch (f.kind) {
    case FieldKind::Size: return "<p>" + html_escape(f.label) + ": <span class=\"blank\"></span></p>";
    case FieldKind::YesNo: return "<p>" + html_escape(f.label) + " &nbsp; yes &nbsp; / &nbsp; no</p>";
    case FieldKind::Choice: {
        std::string list = "<p>" + html_escape(f.label) + "</p><ul>";
        for (const std::string& c : f.choices)
            list += "<li>&#9744; " + html_escape(c) + "</li>";
        return list + "</ul>";
    }
    case FieldKind::Cells: {
        std::string grid = "<p>" + html_escape(f.label) + " (mark each hidden query, key)</p><table class=\"grid\">";
        for (std::int64_t i = 0; i < f.grid; ++i) {
            grid += "<tr>";
            for (std::int64_t j = 0; j < f.grid; ++j)
                grid += "<td>" + std::to_string(i) + "," + std::to_string(j) + "</td>";
            grid += "</tr>";
        }
        return grid + "</table>";
    }
    }
    return {};
}

std::string right_answer(const Field& f)
{
    std::string right = f.right;
    if (f.kind == FieldKind::Size)
        if (const auto it = f.names.find(f.right); it != f.names.end())
            right = f.right + " = " + std::to_string(it->second);
    if (f.kind == FieldKind::Choice) {
        const std::size_t index = static_cast<std::size_t>(std::stoul(f.right.empty() ? "0" : f.right));
        right = index < f.choices.size() ? f.choices[index] : f.right;
    }
    if (f.kind == FieldKind::Cells && right.empty())
        right = "none";
    std::string line = "<li>" + html_escape(f.label) + ": <b>" + html_escape(right) + "</b>";
    if (!f.explanation.empty())
        line += " (" + html_escape(f.explanation) + ")";
    return line + "</li>";
}

} // namespace

std::string html_escape(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string handout_page(const std::string& title, const std::vector<Question>& questions)
{
    std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
                       "</title>\n" + kStyle +
                       "</head><body>\n<p class=\"name\">Name: <span class=\"blank\"></span></p>\n<h1>" +
                       html_escape(title) + "</h1>\n";
    for (std::size_t k = 0; k < questions.size(); ++k) {
        const Question& q = questions[k];
        page += "<div class=\"question\"><h2>" + std::to_string(k + 1) + ". " + html_escape(q.prompt) + "</h2>\n";
        if (!q.context.empty()) {
            const std::size_t code = q.context.find("\nin the code: ");
            std::string given = html_escape(q.context.substr(0, code));
            for (std::size_t at = given.find('\n'); at != std::string::npos; at = given.find('\n', at + 5))
                given.replace(at, 1, "<br>\n"); // a line of its own each: a lesson's step, the settings
            page += "<p class=\"given\">Given: " + given + "</p>\n";
            if (code != std::string::npos)
                page += "<pre>" + html_escape(q.context.substr(code + 14)) + "</pre>\n";
        }
        for (const Field& f : q.fields)
            page += answer_space(f) + "\n";
        page += "</div>\n";
    }
    page += "<div class=\"answers\"><h1>Answers</h1>\n";
    for (std::size_t k = 0; k < questions.size(); ++k) {
        page += "<h2>" + std::to_string(k + 1) + ". " + html_escape(questions[k].prompt) + "</h2><ul>\n";
        for (const Field& f : questions[k].fields)
            page += right_answer(f) + "\n";
        page += "</ul>\n";
    }
    return page + "</div>\n</body></html>\n";
}

} // namespace attnlab::poll
