#pragma once
// The pieces of the book's chapter 4 GPTModel other than the attention, on row-major matrices with rows as
// tokens: shared by the full forward (gpt_forward.cpp) and the stepped one with a KV cache (kv_cache.cpp), so
// both do the same arithmetic in the same order and their logits agree.
#include "gpt/gpt_forward.h"
#include "gpt/gpt_model.h"

#include "tensor/eigen_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::gpt_blocks {

using ConstMap = Eigen::Map<const MatrixRM>;

const Tensor& param(const GptModel& m, const std::string& name);
Eigen::Map<const RowVectorF> row_of(const Tensor& t);

// The book's LayerNorm: biased variance, then scale and shift (`prefix`.scale, `prefix`.shift).
MatrixRM layer_norm(const MatrixRM& x, const GptModel& m, const std::string& prefix, float eps);
// nn.Linear on rows [first, x.rows()): x W^T (+ b), W stored (out, in).
MatrixRM linear(const MatrixRM& x, const Tensor& w, const Tensor* b, Eigen::Index first = 0);
// The book's tanh approximation of GELU (not the exact erf form), which GPT-2 also uses ("gelu_new").
void gelu(MatrixRM& x);
// x += ff(norm2(x)): the second half of a TransformerBlock; `block` is "trf_blocks.{l}.".
void add_feed_forward(MatrixRM& x, const GptModel& m, const std::string& block, float eps);
// (1, T, d)
Tensor to_tensor(const MatrixRM& x);

// Throws Error: no ids, more than context_length, an id outside the vocabulary.
void check_ids(const GptModel& m, const std::vector<std::int64_t>& ids);
void check_layer(const GptModel& m, int layer);
// The `top` likeliest of one row of logits, softmax probabilities over the whole vocabulary.
std::vector<NextToken> top_tokens(const float* logits, std::int64_t vocab, int top);

} // namespace attnlab::gpt_blocks
