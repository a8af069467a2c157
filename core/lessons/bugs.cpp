// The bug catalogue: names, the one-line diffs, the explanations, the buggy source listing, and why a
// bug can be harmless. The mistaken forward itself lives in bug_forward.cpp.
#include "lessons/bugs.h"

#include "text/utf8.h"

#include "tensor/error.h"
#include "forward/module_source.h"

namespace attnlab {

namespace {

const std::vector<BugInfo> kCatalogue = {
    {Bug::SkipHeadTranspose, "skip-head-transpose", "No transpose(1, 2) after the head split",
     "keys = keys.transpose(1, 2)", "# keys = keys.transpose(1, 2)   <- removed, for queries and values too",
     "Without transpose(1, 2) the head axis stays behind the token axis, so queries stay (b, num_tokens, num_heads, "
     "head_dim) and queries @ keys.transpose(2, 3) compares heads with heads inside each token: the scores come out "
     "(b, num_tokens, num_heads, num_heads). The causal mask is num_tokens x num_tokens, so masked_fill_ then fails "
     "unless the sizes happen to fit.",
     stage::keys_heads},
    {Bug::ViewHeadsFirst, "view-heads-first", "view straight to (b, num_heads, num_tokens, head_dim)",
     "keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)",
     "keys = keys.view(b, self.num_heads, num_tokens, self.head_dim)   <- and no transpose, for queries and values too",
     "view only re-reads the same memory in a new shape: asking for (b, num_heads, num_tokens, head_dim) cuts the "
     "tokens' rows, laid end to end, into head-sized pieces in token order, so each 'head' holds pieces of different "
     "tokens. Every later shape looks right and the values are wrong, so a shape check alone will not catch it.",
     stage::keys_view},
    {Bug::SkipMask, "skip-mask", "No causal mask", "attn_scores.masked_fill_(mask_bool, -torch.inf)",
     "# attn_scores.masked_fill_(mask_bool, -torch.inf)   <- removed",
     "Without masked_fill_ nothing hides the later tokens: every token attends to the tokens after it, which a causal "
     "language model must never see. The shapes stay right; " +
         std::string(stage::attn_scores_masked) + " is simply " + stage::attn_scores + ".",
     stage::attn_scores_masked},
    {Bug::MaskDiagonal0, "mask-diagonal-0", "The mask also covers the diagonal",
     "self.register_buffer(\"mask\", torch.triu(torch.ones(context_length, context_length), diagonal=1))",
     "self.register_buffer(\"mask\", torch.triu(torch.ones(context_length, context_length), diagonal=0))",
     "triu(..., diagonal=0) masks the diagonal as well, so no token may attend to itself. The first token has nothing "
     "left: its whole row is -inf, softmax turns it into NaN, and the NaN spreads into that token's context and "
     "output.",
     stage::attn_scores_masked},
    {Bug::ScaleByDOut, "scale-by-d_out", "Scores scaled by sqrt(d_out)",
     "attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)",
     "attn_weights = torch.softmax(attn_scores / self.d_out**0.5, dim=-1)",
     "Each head's dot product runs over head_dim features, so the book scales by sqrt(head_dim); dividing by "
     "sqrt(d_out) shrinks the scores further and the softmax comes out flatter than it should. With one head, "
     "head_dim equals d_out and nothing changes.",
     stage::attn_weights},
    {Bug::SoftmaxWrongDim, "softmax-wrong-dim", "Softmax over the wrong axis",
     "attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)",
     "attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-2)",
     "dim=-2 normalises each column (over the queries) instead of each row (over the keys), so a token's attention "
     "weights no longer sum to 1; the shape is unchanged, only the values tell.",
     stage::attn_weights},
    {Bug::SkipContiguous, "skip-contiguous", "view without contiguous()",
     "context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)",
     "context_vec = context_vec.view(b, num_tokens, self.d_out)",
     "transpose(1, 2) only swaps strides, so the head contexts are not contiguous and view cannot merge num_heads "
     "and head_dim into one axis: PyTorch refuses (unless one of the axes involved has size 1). contiguous() first "
     "copies the data into the transposed order (reshape would do the same).",
     stage::context_merged},
    {Bug::MergeWithoutTranspose, "merge-without-transpose", "Heads merged without transposing back",
     "context_vec = (attn_weights @ values).transpose(1, 2)", "context_vec = attn_weights @ values",
     "Without transpose(1, 2) the contexts are still (b, num_heads, num_tokens, head_dim) when view merges them into "
     "(b, num_tokens, d_out); view reads memory in head order, so each output row is stitched from one head's rows "
     "of several tokens. The final shape is right, the values are not.",
     stage::context_transposed},
    {Bug::SkipOutProj, "skip-out-proj", "No output projection", "context_vec = self.out_proj(context_vec)",
     "# context_vec = self.out_proj(context_vec)   <- removed",
     "Without out_proj the heads' contexts are returned side by side, never mixed by the final projection. out_proj "
     "maps d_out to d_out, so the shape is the same and only the values differ.",
     stage::output},
    {Bug::SwapDInDOut, "swap-d_in-d_out", "d_in and d_out swapped in the call",
     "MultiHeadAttention(d_in, d_out, context_length, dropout, num_heads)",
     "MultiHeadAttention(d_out, d_in, context_length, dropout, num_heads)",
     "With the slots swapped every projection expects d_out features per token while x keeps d_in, so the first one "
     "fails with 'mat1 and mat2 shapes cannot be multiplied'; if the swapped d_out cannot be split into num_heads "
     "heads the constructor refuses even earlier. When d_in equals d_out the swap is invisible.",
     "config"},
};

const BugInfo kNone = {Bug::None, "none", "The book's code", "", "", "No change: the book's forward as written.", ""};

// Replaces the line containing `book` (keeping its indentation) by `buggy`.
void replace_line(std::vector<std::string>& src, const std::string& book, const std::string& buggy)
{
    for (auto& line : src)
        if (line.find(book) != std::string::npos) {
            line = line.substr(0, line.find_first_not_of(' ')) + buggy;
            return;
        }
}

} // namespace

const std::vector<BugInfo>& bug_catalogue()
{
    return kCatalogue;
}

const BugInfo& bug_info(Bug bug)
{
    for (const auto& b : kCatalogue)
        if (b.bug == bug)
            return b;
    return kNone;
}

std::string bug_names()
{
    std::string out;
    for (const auto& b : kCatalogue)
        out += (out.empty() ? "" : ", ") + b.name;
    return out;
}

Bug bug_from_name(std::string_view name)
{
    if (name == kNone.name)
        return Bug::None;
    for (const auto& b : kCatalogue)
        if (b.name == name)
            return b.bug;
    throw Error("there is no bug called '" + printable(name, 60) + "'; the catalogue has " + bug_names() + ".");
}

std::vector<std::string> buggy_source(Bug bug)
{
    std::vector<std::string> src = module_source(ModuleKind::MultiHeadAttention);
    // The book's variables, which the stages are named after.
    const char* roles[] = {stage::queries, stage::keys, stage::values};
    switch (bug) {
    case Bug::SkipHeadTranspose:
    case Bug::ViewHeadsFirst:
        for (const std::string r : roles) {
            replace_line(src, r + " = " + r + ".transpose(1, 2)",
                         "# " + r + " = " + r + ".transpose(1, 2)   <- removed");
            if (bug == Bug::ViewHeadsFirst)
                replace_line(src, r + " = " + r + ".view(",
                             r + " = " + r + ".view(b, self.num_heads, num_tokens, self.head_dim)");
        }
        break;
    case Bug::MaskDiagonal0:
        replace_line(src, "mask_bool = ",
                     "mask_bool = self.mask.bool()[:num_tokens, :num_tokens]  # mask built with diagonal=0");
        break;
    case Bug::SwapDInDOut:
        replace_line(src, "queries = self.W_query(x)",
                     "queries = self.W_query(x)  # W_query is nn.Linear(d_out, d_in) now");
        break;
    case Bug::None: break;
    default: {
        const BugInfo& info = bug_info(bug);
        replace_line(src, info.book_line, info.buggy_line);
    }
    }
    return src;
}

std::string why_harmless(Bug bug, const Config& c, std::int64_t /*batch*/, std::int64_t num_tokens)
{
    const bool one_head = c.num_heads == 1, one_token = num_tokens == 1;
    switch (bug) {
    case Bug::None: return "no bug is injected, so both runs are the book's code.";
    case Bug::SkipHeadTranspose:
        return one_head && one_token ? "with one head and one token the transpose swaps two axes of size 1, so "
                                       "nothing changes."
                                     : "";
    case Bug::ViewHeadsFirst:
        return one_head && one_token ? "with one head and one token (b, num_heads, num_tokens, head_dim) and (b, "
                                       "num_tokens, num_heads, head_dim) are the same shape over the same memory, so "
                                       "nothing changes."
                                     : "";
    case Bug::SkipMask:
        return one_token ? "with one token there is nothing above the diagonal to mask, so skipping masked_fill_ "
                           "changes nothing."
                         : "";
    case Bug::ScaleByDOut:
        if (one_head)
            return "with one head head_dim equals d_out, so dividing by sqrt(d_out) is the book's own scaling.";
        return one_token ? "with one token every softmax row has a single entry, which is 1 whatever the scale." : "";
    case Bug::SoftmaxWrongDim:
        return one_token ? "with one token the scores are 1 x 1 per head, so normalising over rows or over columns "
                           "gives the same 1."
                         : "";
    case Bug::SkipContiguous:
        if (one_head || one_token)
            return "with one head or one token the transpose moves an axis of size 1, so the context is still "
                   "contiguous and view works without contiguous().";
        return c.head_dim() == 1 ? "with head_dim 1 view only merges num_heads with an axis of size 1, which it can "
                                   "do on the transposed strides without a copy, so contiguous() changes nothing here."
                                 : "";
    case Bug::MergeWithoutTranspose:
        return one_head && one_token ? "with one head and one token the missing transpose would only move axes of "
                                       "size 1, so the merged context is the same."
                                     : "";
    case Bug::SwapDInDOut:
        return c.d_in == c.d_out ? "d_in equals d_out, so swapping the two slots builds the same module." : "";
    case Bug::MaskDiagonal0:
    case Bug::SkipOutProj: break;
    }
    return "";
}

} // namespace attnlab
