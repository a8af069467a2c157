#include "common/gift_parser.h"

#include <sstream>
#include <stdexcept>

namespace testing {

namespace {

std::string trim(const std::string& s)
{
    const auto begin = s.find_first_not_of(" \t\r\n");
    const auto end = s.find_last_not_of(" \t\r\n");
    return begin == std::string::npos ? std::string() : s.substr(begin, end - begin + 1);
}

// The position of the first `what` at or after `from` not preceded by a backslash escape; npos if none.
std::size_t find_unescaped(const std::string& s, const std::string& what, std::size_t from = 0)
{
    for (std::size_t i = from; i < s.size(); ++i) {
        if (s[i] == '\\') {
            ++i; // the escaped character is text
            continue;
        }
        if (s.compare(i, what.size(), what) == 0)
            return i;
    }
    return std::string::npos;
}

std::string unescape(const std::string& s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
            const char next = s[++i];
            out += next == 'n' ? '\n' : next;
        } else {
            out += s[i];
        }
    }
    return out;
}

double number_of(const std::string& text, int line)
{
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(trim(text), &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != trim(text).size())
        throw std::runtime_error("line " + std::to_string(line) + ": '" + text + "' is no number");
    return value;
}

// One answer after its = or ~: "%w%" weight, text, "#feedback".
GiftAnswer answer_of(const std::string& raw, double default_weight)
{
    GiftAnswer a;
    a.weight = default_weight;
    std::string body = raw;
    if (!body.empty() && body[0] == '%') {
        const auto close = body.find('%', 1);
        a.weight = std::stod(body.substr(1, close - 1));
        body = body.substr(close + 1);
    }
    const auto hash = find_unescaped(body, "#");
    a.text = unescape(trim(body.substr(0, hash)));
    if (hash != std::string::npos)
        a.feedback = unescape(trim(body.substr(hash + 1)));
    return a;
}

void read_block(GiftQuestion& q, std::string block, int line)
{
    const auto general = find_unescaped(block, "####");
    if (general != std::string::npos) {
        q.general_feedback = unescape(trim(block.substr(general + 4)));
        block = block.substr(0, general);
    }
    block = trim(block);
    if (block.empty())
        throw std::runtime_error("line " + std::to_string(line) + ": an empty answer block");
    const std::string head = block.substr(0, find_unescaped(block, "#"));
    if (trim(head) == "T" || trim(head) == "TRUE" || trim(head) == "F" || trim(head) == "FALSE") {
        q.type = GiftQuestion::Type::TrueFalse;
        q.truth = trim(head)[0] == 'T';
        return;
    }
    if (block[0] == '#') {
        q.type = GiftQuestion::Type::Numerical;
        std::string value = trim(block.substr(1));
        if (!value.empty() && value[0] == '=') // several answers: the first full-credit one is the answer
            value = value.substr(1, find_unescaped(value, "=", 1) - 1);
        if (!value.empty() && value[0] == '%')
            value = value.substr(value.find('%', 1) + 1);
        value = value.substr(0, find_unescaped(value, "#"));
        if (const auto range = value.find(".."); range != std::string::npos) {
            const double lo = number_of(value.substr(0, range), line), hi = number_of(value.substr(range + 2), line);
            q.number = (lo + hi) / 2;
            q.tolerance = (hi - lo) / 2;
        } else if (const auto colon = value.find(':'); colon != std::string::npos) {
            q.number = number_of(value.substr(0, colon), line);
            q.tolerance = number_of(value.substr(colon + 1), line);
        } else {
            q.number = number_of(value, line);
        }
        return;
    }
    bool wrong_seen = false;
    std::size_t at = 0;
    while (at < block.size()) {
        const char mark = block[at];
        if (mark != '=' && mark != '~')
            throw std::runtime_error("line " + std::to_string(line) + ": an answer starts with '" + mark +
                                     "', not = or ~");
        std::size_t next = block.size();
        for (const char* m : {"=", "~"})
            next = std::min(next, find_unescaped(block, m, at + 1) == std::string::npos
                                      ? block.size()
                                      : find_unescaped(block, m, at + 1));
        wrong_seen |= mark == '~';
        q.answers.push_back(answer_of(block.substr(at + 1, next - at - 1), mark == '=' ? 100 : 0));
        at = next;
        while (at < block.size() && (block[at] == ' ' || block[at] == '\n'))
            ++at;
    }
    q.type = wrong_seen ? GiftQuestion::Type::MultipleChoice : GiftQuestion::Type::ShortAnswer;
}

} // namespace

std::vector<GiftQuestion> parse_gift(const std::string& text)
{
    // Questions are separated by blank lines; comment lines are dropped first.
    std::vector<std::pair<std::string, int>> blocks;
    std::istringstream in(text);
    std::string line, current;
    int number = 0, start = 0;
    while (std::getline(in, line)) {
        ++number;
        if (trim(line).rfind("//", 0) == 0)
            continue;
        if (trim(line).empty()) {
            if (!trim(current).empty())
                blocks.emplace_back(current, start);
            current.clear();
            continue;
        }
        if (current.empty())
            start = number;
        current += line + "\n";
    }
    if (!trim(current).empty())
        blocks.emplace_back(current, start);

    std::vector<GiftQuestion> out;
    std::string category;
    for (auto& [raw, at] : blocks) {
        std::string s = trim(raw);
        if (s.rfind("$CATEGORY:", 0) == 0) {
            category = trim(s.substr(10));
            continue;
        }
        GiftQuestion q;
        q.category = category;
        if (s.rfind("::", 0) == 0) {
            const auto close = find_unescaped(s, "::", 2);
            if (close == std::string::npos)
                throw std::runtime_error("line " + std::to_string(at) + ": a title without its closing ::");
            q.title = unescape(trim(s.substr(2, close - 2)));
            s = trim(s.substr(close + 2));
        }
        if (!s.empty() && s[0] == '[') {
            const auto close = s.find(']');
            q.format = s.substr(1, close - 1);
            s = s.substr(close + 1);
        }
        const auto open = find_unescaped(s, "{");
        if (open == std::string::npos) {
            q.text = unescape(trim(s));
            out.push_back(q);
            continue;
        }
        const auto close = find_unescaped(s, "}", open + 1);
        if (close == std::string::npos)
            throw std::runtime_error("line " + std::to_string(at) + ": an answer block without its closing }");
        q.text = unescape(trim(s.substr(0, open)) +
                          (trim(s.substr(close + 1)).empty() ? "" : " _____ " + trim(s.substr(close + 1))));
        read_block(q, s.substr(open + 1, close - open - 1), at);
        out.push_back(q);
    }
    return out;
}

} // namespace testing
