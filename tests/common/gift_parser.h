#pragma once
// A reader of Moodle's GIFT quiz format written from its documentation (docs.moodle.org, "GIFT format"), not from
// the app's writer, so that a quiz the app exports is read as an LMS would read it: comments (//), $CATEGORY,
// ::title::, [format], the question text, and one answer block { } as true/false, numerical (#value,
// #value:tolerance, #min..max, several =%w%value), multiple choice (= right, ~ wrong, ~%w% weighted) or short
// answer (= only); # feedback and #### general feedback; the escapes \~ \= \# \{ \} \: \\ and \n.
#include <optional>
#include <string>
#include <vector>

namespace testing {

struct GiftAnswer {
    std::string text;  // unescaped
    double weight = 0; // percent: 100 for "=", 0 for "~", w for "%w%"
    std::string feedback;
};

struct GiftQuestion {
    enum class Type { TrueFalse, Numerical, MultipleChoice, ShortAnswer, Description };
    std::string category;            // the $CATEGORY in force
    std::string title, format, text; // unescaped
    Type type = Type::Description;
    bool truth = false;                      // TrueFalse
    std::optional<double> number, tolerance; // Numerical (value and tolerance, or the range's middle)
    std::vector<GiftAnswer> answers;         // MultipleChoice, ShortAnswer
    std::string general_feedback;
};

// Throws std::runtime_error naming the line for what the format does not allow: an unclosed block, text after an
// unescaped special character where none may be, an empty block, a numerical answer that is no number.
std::vector<GiftQuestion> parse_gift(const std::string& text);

} // namespace testing
