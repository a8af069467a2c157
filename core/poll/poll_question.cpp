#include "poll/poll_question.h"

#include "forward/stage_table.h"
#include "tensor/error.h"
#include "text/utf8.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

namespace attnlab::poll {

std::string quoted(std::string_view text)
{
    std::string out = "\""; // appended, not "\"" + ...: GCC 12 warns falsely (-Wrestrict) of the operator+ form
    return out.append(printable(text, 40)).append("\"");
}

namespace {

constexpr std::size_t kLongestValue = 64;   // an axis name, a number, a choice's index
constexpr std::int64_t kLargestGrid = 8;    // Predict First asks the mask on inputs of up to 8 tokens
constexpr std::size_t kLongestChoice = 200; // a teacher's option, as typed
constexpr std::size_t kMostChoices = 8;

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    const auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::optional<std::int64_t> whole_number(std::string_view text)
{
    std::int64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end)
        return std::nullopt;
    return v;
}

Field yes_no(std::string name, std::string label, bool truth)
{
    Field f;
    f.name = std::move(name);
    f.label = std::move(label);
    f.kind = FieldKind::YesNo;
    f.right = truth ? "yes" : "no";
    return f;
}

std::string cell(std::int64_t i, std::int64_t j)
{
    return std::to_string(i) + "-" + std::to_string(j);
}

// "2-3,0-1" -> "0-1,2-3", each cell inside the grid, none twice; throws with the field's words otherwise.
std::string read_cells(const Field& f, const std::string& value)
{
    std::set<std::pair<std::int64_t, std::int64_t>> cells;
    std::size_t start = 0;
    while (start < value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        const std::string item = trimmed(value.substr(start, comma - start));
        const std::size_t dash = item.find('-');
        const auto i = dash == std::string::npos ? std::nullopt : whole_number(std::string_view(item).substr(0, dash));
        const auto j = dash == std::string::npos ? std::nullopt : whole_number(std::string_view(item).substr(dash + 1));
        if (!i || !j || *i < 0 || *j < 0 || *i >= f.grid || *j >= f.grid)
            throw Error(quoted(f.name) + " lists cells as row-column pairs from 0-0 to " +
                        cell(f.grid - 1, f.grid - 1) + " joined by commas.");
        if (!cells.insert({*i, *j}).second)
            throw Error(quoted(f.name) + " names the cell " + printable(item, 20) + " twice.");
        start = comma + 1;
    }
    std::string out;
    for (const auto& [i, j] : cells)
        out.append(out.empty() ? "" : ",").append(cell(i, j));
    return out;
}

} // namespace

std::string_view kind_name(FieldKind kind)
{
    switch (kind) {
    case FieldKind::Size: return "size";
    case FieldKind::YesNo: return "yes-no";
    case FieldKind::Choice: return "choice";
    case FieldKind::Cells: return "cells";
    }
    return "size";
}

Question from_stage(const Trace& trace, const StageQuestion& q)
{
    Question out;
    out.id = "stage:" + q.stage;
    out.prompt = q.prompt;
    out.context = q.given;
    if (!q.code.empty())
        out.context += "\nin the code: " + q.code;
    std::map<std::string, std::int64_t> names;
    for (const AxisQuestion& a : q.axes)
        names[a.name] = a.size;
    for (const std::string& offered : q.offered) // as check_prediction reads a name: its size in the trace
        for (const Stage& st : trace.stages)
            for (std::size_t k = 0; k < st.axes.size() && !names.count(offered); ++k)
                if (axis_name(st.axes[k]) == offered)
                    names[offered] = st.tensor.shape()[k];
    for (std::size_t a = 0; a < q.axes.size(); ++a) {
        Field f;
        f.name = "axis-" + std::to_string(a);
        f.label = "axis " + std::to_string(a);
        f.kind = FieldKind::Size;
        f.names = names;
        f.right = q.axes[a].name;
        f.explanation = q.axes[a].explanation;
        out.fields.push_back(std::move(f));
    }
    if (q.asks_layout) {
        out.fields.push_back(yes_no("contiguous", "Contiguous?", q.contiguous));
        out.fields.push_back(yes_no("shares-storage", "Same storage as " + q.layout_of + "?", q.shares_storage));
    }
    if (q.asks_mask) {
        Field f;
        f.name = "hidden";
        f.label = "Which cells does the mask hide?";
        f.kind = FieldKind::Cells;
        f.grid = q.tokens;
        std::string right; // the cells the stage hides, window included, row by row
        for (const auto& [i, j] : q.hidden)
            right.append(right.empty() ? "" : ",").append(cell(i, j));
        f.right = right;
        out.fields.push_back(std::move(f));
    }
    return out;
}

std::vector<Question> every_stage(const Trace& trace)
{
    std::vector<Question> out;
    for (const Stage& s : trace.stages)
        if (s.name != stage::x)
            out.push_back(from_stage(trace, question_for(trace, s.name)));
    return out;
}

Question from_heads(const HeadQuestion& q)
{
    Question out;
    out.id = "heads:" + q.stage;
    out.prompt = q.prompt;
    Field f;
    f.name = "head";
    f.label = "Head";
    f.kind = FieldKind::Choice;
    const double best = q.previous.empty() ? 0 : q.previous[static_cast<std::size_t>(q.best)];
    for (std::size_t h = 0; h < q.previous.size(); ++h) {
        f.choices.push_back("head " + std::to_string(h));
        if (static_cast<int>(h) != q.best && q.previous[h] >= kHeadTie * best)
            f.also_right.push_back(std::to_string(h));
    }
    f.right = std::to_string(q.best);
    out.fields.push_back(std::move(f));
    return out;
}

Question from_choices(const std::string& prompt, const std::vector<std::string>& choices, int right)
{
    if (trimmed(prompt).empty())
        throw Error("A question for the class needs its text.");
    if (choices.size() < 2 || choices.size() > kMostChoices)
        throw Error("A multiple choice has 2 to " + std::to_string(kMostChoices) + " choices, not " +
                    std::to_string(choices.size()) + ".");
    if (right < 0 || right >= static_cast<int>(choices.size()))
        throw Error("The right answer is one of choices 1 to " + std::to_string(choices.size()) + ".");
    Question out;
    out.id = "choice:" + prompt;
    out.prompt = trimmed(prompt);
    Field f;
    f.name = "choice";
    f.label = "Answer";
    f.kind = FieldKind::Choice;
    for (std::size_t c = 0; c < choices.size(); ++c) {
        const std::string text = trimmed(choices[c]);
        if (text.empty() || text.size() > kLongestChoice)
            throw Error("Choice " + std::to_string(c + 1) + " needs 1 to " + std::to_string(kLongestChoice) +
                        " characters of text.");
        f.choices.push_back(text);
    }
    f.right = std::to_string(right);
    out.fields.push_back(std::move(f));
    return out;
}

Question number_question(const std::string& id, const std::string& prompt, std::int64_t right,
                         const std::string& explanation)
{
    Field f;
    f.name = "number";
    f.label = "Answer";
    f.kind = FieldKind::Size; // a whole number; with no names offered, only a number
    f.right = std::to_string(right);
    f.explanation = explanation;
    return {id, prompt, {}, {std::move(f)}};
}

Question yes_no_question(const std::string& id, const std::string& prompt, bool right)
{
    Field f;
    f.name = "yes-no";
    f.label = "Answer";
    f.kind = FieldKind::YesNo;
    f.right = right ? "yes" : "no";
    return {id, prompt, {}, {std::move(f)}};
}

Answer read_answer(const Question& question, const Answer& raw)
{
    Answer out;
    for (const auto& entry : raw) { // not a structured binding: clang 14 cannot capture one in the lambda
        const std::string& key = entry.first;
        if (std::none_of(question.fields.begin(), question.fields.end(), [&](const Field& f) { return f.name == key; }))
            throw Error("This question has no field " + quoted(key) + ".");
    }
    for (const Field& f : question.fields) {
        const auto it = raw.find(f.name);
        if (it == raw.end())
            throw Error("The answer has no " + quoted(f.name) + " (" + printable(f.label, 40) + ").");
        const std::string value = trimmed(it->second);
        switch (f.kind) {
        case FieldKind::Size: {
            const auto v = whole_number(value);
            if (value.size() > kLongestValue || (!v && !f.names.count(value)) || (v && *v < 0)) {
                std::string names;
                for (const auto& [name, size] : f.names)
                    names.append(names.empty() ? "" : ", ").append(name);
                throw Error(quoted(f.name) + " is a whole number from 0" +
                            (names.empty() ? std::string(".") : " or one of " + printable(names, 120) + "."));
            }
            out[f.name] = v ? std::to_string(*v) : value;
            break;
        }
        case FieldKind::YesNo:
            if (value != "yes" && value != "no")
                throw Error(quoted(f.name) + " is yes or no.");
            out[f.name] = value;
            break;
        case FieldKind::Choice: {
            const auto v = whole_number(value);
            if (!v || *v < 0 || *v >= static_cast<std::int64_t>(f.choices.size()))
                throw Error(quoted(f.name) + " is a choice from 0 to " + std::to_string(f.choices.size() - 1) + ".");
            out[f.name] = std::to_string(*v);
            break;
        }
        case FieldKind::Cells:
            if (value.size() > static_cast<std::size_t>(kLargestGrid * kLargestGrid * 6))
                throw Error(quoted(f.name) + " lists more cells than the grid has.");
            out[f.name] = read_cells(f, value);
            break;
        }
    }
    return out;
}

std::int64_t size_of(const Field& field, const std::string& value)
{
    if (field.kind != FieldKind::Size)
        return -1;
    if (const auto v = whole_number(value))
        return *v;
    const auto it = field.names.find(value);
    return it == field.names.end() ? -1 : it->second;
}

bool is_right(const Field& field, const std::string& value)
{
    if (field.kind == FieldKind::Size)
        return size_of(field, value) == size_of(field, field.right) && size_of(field, value) >= 0;
    return value == field.right ||
           std::find(field.also_right.begin(), field.also_right.end(), value) != field.also_right.end();
}

} // namespace attnlab::poll
