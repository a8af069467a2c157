// Reads the shape of a Python call: class name, '(', arguments with optional keywords, ')'. Literals
// are scanned in call_literals.cpp, binding to slots happens in call_binder.cpp. Every byte is looked
// at a bounded number of times, so hostile input costs linear time.
#include "call/call_parser.h"

#include "call/call_literals.h"
#include "call/call_messages.h"

#include <algorithm>

namespace attnlab {

using namespace lex;

namespace {

constexpr std::size_t kMaxCallLength = 100000;

class SyntaxReader {
public:
    SyntaxReader(std::string_view text, ParsedCall& out) : t_(text), out_(out) {}
    void read_call();

private:
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < t_.size() ? t_[pos_ + ahead] : '\0'; }
    bool at_end() const { return pos_ >= t_.size(); }
    void skip_space()
    {
        while (!at_end() && is_space(t_[pos_]))
            ++pos_;
    }
    std::string found() const { return at_end() ? "the end of the call" : describe_char(t_[pos_]); }
    // The first error wins. One found at the end points just past the last visible character, so the
    // caret does not land on an empty line after a trailing newline.
    bool fail(std::size_t column, std::string message)
    {
        if (column >= t_.size()) {
            column = t_.size();
            while (column > 0 && is_space(t_[column - 1]))
                --column;
        }
        if (!out_.error)
            out_.error = CallError{std::move(message), column};
        return false;
    }
    std::size_t read_identifier()
    {
        const std::size_t begin = pos_;
        while (!at_end() && is_ident_char(t_[pos_]))
            ++pos_;
        return begin;
    }
    bool read_argument(bool& seen_keyword);
    bool read_value(CallArgument& arg);
    bool read_literal(CallArgument& arg);
    bool keyword_not() const { return t_.substr(pos_, 3) == "not" && !is_ident_char(peek(3)); }
    bool take(const LiteralScan& scan, CallArgument& arg);

    std::string_view t_;
    ParsedCall& out_;
    std::size_t pos_ = 0;
};

void SyntaxReader::read_call()
{
    skip_space();
    if (at_end())
        return void(fail(pos_, "the call is empty; write a class name and its arguments, such as "
                               "MultiHeadAttention(768, 768, 1024, 0.0, 12)."));
    if (!is_ident_start(peek()))
        return void(fail(pos_, "expected a class name such as MultiHeadAttention at the start of the call, but found " +
                                   found() + "."));
    out_.syntax.class_begin = read_identifier();
    out_.syntax.class_name = std::string(t_.substr(out_.syntax.class_begin, pos_ - out_.syntax.class_begin));
    skip_space();
    if (peek() != '(')
        return void(fail(pos_, "expected '(' after " + out_.syntax.class_name +
                                   " to open the argument list, but found " + found() + "."));
    ++pos_;
    skip_space();
    bool seen_keyword = false;
    while (peek() != ')') {
        if (!read_argument(seen_keyword))
            return;
        skip_space();
        if (at_end())
            return void(fail(pos_, "the call ends without a closing ')'; add ')' after the last argument."));
        if (peek() == ',') {
            ++pos_;
            skip_space();
        } else if (peek() != ')') {
            return void(fail(pos_, "expected ',' or ')' after the argument '" +
                                       clip(out_.syntax.arguments.back().text) + "', but found " + found() + "."));
        }
    }
    ++pos_;
    skip_space();
    if (!at_end())
        fail(pos_, "unexpected " + found() + " after the closing ')'; the call must end there.");
}

bool SyntaxReader::read_argument(bool& seen_keyword)
{
    if (at_end())
        return fail(pos_, "the call ends without a closing ')'; add ')' after the last argument.");
    if (peek() == ',')
        return fail(pos_, "empty argument: there is no value before this ','; remove the extra comma.");
    CallArgument arg;
    arg.begin = pos_;
    if (is_ident_start(peek())) {
        const std::size_t name_begin = read_identifier();
        const std::size_t name_end = pos_;
        skip_space();
        if (peek() == '=' && peek(1) != '=') {
            arg.keyword = std::string(t_.substr(name_begin, name_end - name_begin));
            ++pos_;
            skip_space();
            if (at_end() || peek() == ',' || peek() == ')')
                return fail(pos_, "the keyword '" + *arg.keyword + "=' has no value; write one after the '='.");
        } else {
            pos_ = name_begin; // a bare name is a value, not a keyword
        }
    }
    arg.value_begin = pos_;
    if (!read_value(arg))
        return false;
    arg.end = pos_;
    arg.text = std::string(t_.substr(arg.value_begin, arg.end - arg.value_begin));
    if (arg.keyword) {
        seen_keyword = true;
    } else if (seen_keyword) {
        // Python refuses this at compile time; keep reading so the rest of the call is still shown.
        fail(arg.begin, "the positional argument '" + clip(arg.text) +
                            "' comes after a keyword argument, which Python "
                            "does not allow; give it a keyword too or move it before the keywords.");
    }
    out_.syntax.arguments.push_back(std::move(arg));
    return true;
}

bool truthy(const CallArgument& arg, const std::string& literal)
{
    switch (arg.kind) {
    case LiteralKind::Int: {
        const auto v = python_int_value(literal);
        return !v || *v != 0; // one too large for 64 bits is not zero either
    }
    case LiteralKind::Float: {
        const auto v = python_float_value(literal);
        return !v || *v != 0.0;
    }
    case LiteralKind::Bool: return literal == "True";
    default: return false; // None
    }
}

// Python reads a value inside parentheses and after `not` as well: ((768)) is 768 and `not False` is
// True. Both are read in a loop, not by recursion, so ten thousand '(' cost no stack.
bool SyntaxReader::read_value(CallArgument& arg)
{
    std::size_t opened = 0, nots = 0;
    for (;;) {
        skip_space();
        if (peek() == '(') {
            ++opened;
            ++pos_;
        } else if (keyword_not()) {
            ++nots;
            pos_ += 3;
        } else {
            break;
        }
    }
    const std::size_t literal_begin = pos_;
    if (!read_literal(arg))
        return false;
    const std::string literal(t_.substr(literal_begin, pos_ - literal_begin));
    for (; opened > 0; --opened) {
        skip_space();
        if (peek() != ')')
            return fail(pos_, "expected ')' to close a '(' around the value " + clip(literal) + ", but found " +
                                  found() + ".");
        ++pos_;
    }
    if (pos_ - arg.value_begin != literal.size())
        arg.literal = literal;
    if (nots > 0 && arg.kind != LiteralKind::Other) {
        arg.literal = truthy(arg, literal) != (nots % 2 == 1) ? "True" : "False";
        arg.kind = LiteralKind::Bool;
    }
    return true;
}

bool SyntaxReader::read_literal(CallArgument& arg)
{
    const char c = peek();
    if (c == '+' || c == '-') {
        ++pos_;
        skip_space();
        if (!is_digit(peek()) && !(peek() == '.' && is_digit(peek(1))))
            return fail(pos_, std::string("expected a number after '") + c + "', but found " + found() + ".");
        return take(scan_python_number(t_, pos_), arg);
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1))))
        return take(scan_python_number(t_, pos_), arg);
    if (c == '\'' || c == '"')
        return take(scan_python_string(t_, pos_), arg);
    if (is_ident_start(c)) {
        const std::size_t begin = read_identifier();
        const std::string_view name = t_.substr(begin, pos_ - begin);
        arg.kind = name == "True" || name == "False" ? LiteralKind::Bool
                   : name == "None"                  ? LiteralKind::None
                                                     : LiteralKind::Other;
        return true;
    }
    return fail(pos_, "unexpected " + found() + " where a value should be; write a number, True or False.");
}

bool SyntaxReader::take(const LiteralScan& scan, CallArgument& arg)
{
    if (!scan.error.empty())
        return fail(scan.error_column, scan.error);
    arg.kind = scan.kind;
    pos_ = scan.end;
    return true;
}

} // namespace

std::string CallError::with_caret(std::string_view call_text) const
{
    // Show only the line the column is on, so a caret under a multi-line call still lines up.
    const std::size_t at = std::min(column, call_text.size());
    const std::size_t line_begin = at == 0 ? 0 : call_text.rfind('\n', at - 1) + 1; // npos + 1 == 0
    const std::size_t line_end = std::min(call_text.find('\n', at), call_text.size());
    // A very long line (a pasted 30,000-argument call) is shown as a window around the caret.
    constexpr std::size_t kContext = 60;
    const std::size_t shown_begin = at - line_begin > kContext ? at - kContext : line_begin;
    const std::size_t shown_end = line_end - at > kContext ? at + kContext : line_end;
    const std::string before = shown_begin > line_begin ? "..." : "";
    const std::string after = shown_end < line_end ? "..." : "";
    std::string pad(before.size(), ' ');
    for (std::size_t i = shown_begin; i < at; ++i)
        pad += call_text[i] == '\t' ? '\t' : ' ';
    return message + "\n" + before + std::string(call_text.substr(shown_begin, shown_end - shown_begin)) + after +
           "\n" + pad + "^";
}

ParsedCall parse_call_syntax(std::string_view text)
{
    ParsedCall out;
    if (text.size() > kMaxCallLength) {
        out.error = CallError{"the call is " + std::to_string(text.size()) + " characters long, more than the " +
                                  std::to_string(kMaxCallLength) + " this reader accepts.",
                              kMaxCallLength};
        return out;
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (static_cast<unsigned char>(text[i]) >= 0x80) {
            out.error = CallError{"the call contains a non-ASCII character at position " + std::to_string(i + 1) +
                                      " (counting from 1); typographic quotes, dashes and non-breaking spaces often "
                                      "slip in when copying from a PDF, so retype it in plain ASCII.",
                                  i};
            return out;
        }
        if (text[i] == '\0') { // the reader uses '\0' to mean "past the end"
            out.error = CallError{"the call contains a NUL byte at position " + std::to_string(i + 1) + ".", i};
            return out;
        }
    }
    try {
        SyntaxReader(text, out).read_call();
    } catch (...) {
        // Only allocation can throw here; a fuzzer or the GUI gets an error, never an exception.
        out.error = CallError{"the call could not be read because memory ran out.", 0};
    }
    return out;
}

} // namespace attnlab
