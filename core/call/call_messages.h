#pragma once
// Wording shared by the call reader's messages: lists, ordinals, clipped echoes of what was typed,
// and "did you mean" suggestions for misspelt class and keyword names.
#include "call/config.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

std::string describe_char(char c);       // 'x', "'", '\\x01'
std::string clip(std::string_view text); // long echoes end in "..."
std::string list_words(const std::vector<std::string>& words, const char* last_joiner = " and ");
std::string ordinal(std::size_t n); // 1st, 2nd, 3rd, 11th
std::string unknown_class_message(const std::string& name);
std::string unknown_keyword_message(ModuleKind kind, const std::string& keyword);

} // namespace attnlab
