#pragma once
// The operations of the book's GPTModel, forward and backward, on row-major float buffers of `n` rows
// (batch x tokens). Each backward takes what its forward kept and the gradient of its output; weight
// gradients are written (=), never accumulated, since no parameter is used twice in the model.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attnlab::train {

// nn.Linear: y (n x out) = x (n x in) W^T + b, W stored (out x in); b may be null.
void linear_forward(const float* x, std::size_t n, std::size_t in, const float* w, const float* b, std::size_t out,
                    float* y);
// dx (may be null) = dy W; dw = dy^T x; db (may be null) = column sums of dy.
void linear_backward(const float* x, std::size_t n, std::size_t in, const float* w, std::size_t out, const float* dy,
                     float* dx, float* dw, float* db);

// The book's LayerNorm: eps 1e-5, biased variance. Keeps the normalised x and 1/sqrt(var + eps) per row.
void layer_norm_forward(const float* x, std::size_t n, std::size_t d, const float* scale, const float* shift, float* y,
                        float* xhat, float* rstd);
void layer_norm_backward(const float* dy, const float* xhat, const float* rstd, const float* scale, std::size_t n,
                         std::size_t d, float* dx, float* dscale, float* dshift);

// The book's GELU, the tanh approximation: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
// The forward keeps the tanh (t) for the backward.
void gelu_forward(const float* x, std::size_t count, float* y, float* t);
void gelu_backward(const float* x, const float* t, const float* dy, std::size_t count, float* dx);

// Sequence b's rows in a batch of `tokens`-long sequences: b x tokens on, all of them; or, with ragged rows
// (GptNet's Rows::live keeps only each sequence's first positions), starts[b] .. starts[b + 1].
struct SequenceRows {
    std::size_t first = 0, count = 0;
};
inline SequenceRows sequence_rows(const std::size_t* starts, std::size_t tokens, std::size_t b)
{
    return starts ? SequenceRows{starts[b], starts[b + 1] - starts[b]} : SequenceRows{b * tokens, tokens};
}

// x[b, t] = tok_emb[ids[b, t]] + pos_emb[t], ids checked by the caller. ids are batch x tokens; with
// `starts` (ragged rows, sequence_rows) x holds only sequence b's first starts[b + 1] - starts[b]
// positions, from row starts[b].
void embedding_forward(const std::int64_t* ids, std::size_t batch, std::size_t tokens, const float* tok,
                       const float* pos, std::size_t d, float* x, const std::size_t* starts = nullptr);
void embedding_backward(const std::int64_t* ids, std::size_t batch, std::size_t tokens, const float* dx,
                        std::size_t vocab, std::size_t d, float* dtok, float* dpos,
                        const std::size_t* starts = nullptr);

struct LossStats {
    double loss = 0.0;       // mean cross-entropy over the scored rows (0 when none)
    std::size_t scored = 0;  // rows whose target is not -100
    std::size_t correct = 0; // scored rows whose largest logit is the target
};
constexpr std::int64_t kIgnoreIndex = -100;

// F.cross_entropy(logits, targets) with ignore_index -100, mean over the scored rows. When dlogits is not
// null it receives d(mean loss)/d(logits): (softmax - one_hot) / scored on scored rows, 0 elsewhere.
LossStats cross_entropy(const float* logits, const std::int64_t* targets, std::size_t n, std::size_t vocab,
                        float* dlogits);

} // namespace attnlab::train
