#pragma once
// The synthetic training tasks' tokens written as letters (train/tasks.h): ids 0 to 25 are A to Z, then
// A1 to Z1 for 26 to 51, and so on. A model trained on such a task reads text written that way, so a
// student can type "A B C D A B C" and see its previous-token and induction heads on it.
#include "text/tokenizer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

std::string letter_token(std::int64_t id);
// The ids as tokens with a space between: what letter_tokenize reads back.
std::string letter_text(const std::vector<std::int64_t>& ids);

// Each letter (either case), with the digits that follow it, is one token; spaces and commas separate
// tokens and are dropped. Any other character, and a letter whose id is `vocab` or more, is a token marked
// unknown (its id 0), so a caller can name it: unknown_letter_sentence says what is wrong.
TokenizedText letter_tokenize(std::string_view text, std::int64_t vocab);
// One sentence for the first unknown token of `t`, or "" when none is.
std::string unknown_letter_sentence(const TokenizedText& t, std::int64_t vocab);

} // namespace attnlab
