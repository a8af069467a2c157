#pragma once
// Shared by transfer.cpp and transfer_gpt2.cpp, not part of the lesson's API.
#include "lessons/transfer.h"

#include <string>

namespace attnlab::detail {

// Compares r.target_output with r.source_output (rtol 1e-4, atol 1e-5) and fills status, max_abs_diff
// and message; `square` says whether a line without .T could run at all.
TransferResult finish_transfer(TransferResult r, const TransferSpec& spec, bool square, const std::string& match_note);

} // namespace attnlab::detail
