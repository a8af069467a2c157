#include "poll/gift_quiz.h"

#include "tensor/error.h"

#include <algorithm>
#include <charconv>

namespace attnlab::poll {

namespace {

// A Size field's answer as a number: its size when `right` names an axis, else `right` itself.
std::string size_answer(const Field& f)
{
    if (const auto it = f.names.find(f.right); it != f.names.end())
        return std::to_string(it->second);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(f.right.data(), f.right.data() + f.right.size(), value);
    if (ec != std::errc() || end != f.right.data() + f.right.size())
        throw Error("the answer '" + f.right + "' of " + f.label + " is no whole number a quiz can score.");
    return f.right;
}

std::string answer_block(const Field& f)
{
    switch (f.kind) {
    case FieldKind::Size:
        return "{#" + size_answer(f) + (f.explanation.empty() ? "" : "####" + gift_escape(f.explanation)) + "}";
    case FieldKind::YesNo: return f.right == "yes" ? "{TRUE}" : "{FALSE}";
    case FieldKind::Choice: {
        std::string block = "{";
        for (std::size_t c = 0; c < f.choices.size(); ++c) {
            const std::string index = std::to_string(c);
            const bool also = std::find(f.also_right.begin(), f.also_right.end(), index) != f.also_right.end();
            block += index == f.right ? "\n=" : also ? "\n~%100%" : "\n~";
            block += gift_escape(f.choices[c]);
        }
        return block + "\n}";
    }
    case FieldKind::Cells: { // scored as the count of hidden positions
        const std::size_t cells = f.right.empty() ? 0 : 1 + std::count(f.right.begin(), f.right.end(), ',');
        return "{#" + std::to_string(cells) + "####" + gift_escape("the hidden positions: " + f.right) + "}";
    }
    }
    return {};
}

// What one field asks, after the question's own prompt.
std::string field_prompt(const Question& q, const Field& f)
{
    if (f.kind == FieldKind::Cells)
        return "How many of the " + std::to_string(f.grid) + " × " + std::to_string(f.grid) +
               " (query, key) positions does the mask hide?";
    const auto axes =
        std::count_if(q.fields.begin(), q.fields.end(), [](const Field& g) { return g.kind == FieldKind::Size; });
    if (f.kind == FieldKind::Size && q.fields.size() > 1)
        return "Answer " + f.label + " (of its " + std::to_string(axes) + " axes) as a number.";
    if (q.fields.size() > 1)
        return f.label;
    return {};
}

} // namespace

std::string gift_escape(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        if (c == '~' || c == '=' || c == '#' || c == '{' || c == '}' || c == ':' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

std::string gift_quiz(const std::string& category, const std::vector<Question>& questions)
{
    std::string out = "// Attention Lab: questions with the answers the app computes. Moodle imports this file as\n"
                      "// GIFT (Question bank > Import > GIFT format).\n\n$CATEGORY: " +
                      category + "\n\n";
    for (const Question& q : questions) {
        if (q.fields.empty())
            throw Error("the question '" + q.id + "' asks nothing a quiz can score.");
        for (const Field& f : q.fields) {
            std::string text = q.context.empty() ? std::string() : q.context + "\n\n";
            text += q.prompt;
            if (const std::string ask = field_prompt(q, f); !ask.empty())
                text += "\n\n" + ask;
            out += "::" + gift_escape(q.id + " " + f.name) + "::[plain]" + gift_escape(text) + " " + answer_block(f) +
                   "\n\n";
        }
    }
    return out;
}

} // namespace attnlab::poll
