#pragma once
// A lesson's questions as a page to print and hand out: every question with room to answer (a line per axis,
// yes / no to circle, the choices to tick, an empty grid for a mask), then, after a page break, the answers with
// how they come about, for the teacher. Self-contained HTML (no scripts, no files beside it), A4 or Letter.
#include "poll/poll_question.h"

#include <string>
#include <vector>

namespace attnlab::poll {

std::string html_escape(const std::string& text);

// `title` heads the page ("MultiHeadAttention(768, 768, 1024, 0.0, 12): predict the shapes").
std::string handout_page(const std::string& title, const std::vector<Question>& questions);

} // namespace attnlab::poll
