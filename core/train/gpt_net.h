#pragma once
// One forward and backward pass of the book's GPTModel over a batch, written out per operation
// (train_ops.h, train_attention.h), with the activations the backward needs kept in a workspace that
// grows once and is reused every step. Parameters and gradients are flat buffers in gpt_layout's order.
#include "tensor/torch_random.h"
#include "train/gpt_params.h"
#include "train/kv_groups.h"
#include "train/train_attention.h"
#include "train/train_ops.h"

#include <cstdint>
#include <vector>

namespace attnlab::train {

// Which positions a forward computes. Only scored positions reach the loss, and attention is causal, so
// both cuts below give the same loss, accuracy and gradients as `all` (what they skip has exact zero
// gradients there):
// - scored: the last block's per-position part (out_proj, the shortcut, norm2, the feed-forward, final_norm,
//   out_head, the loss) runs on the scored positions only, about a third less work at ~5 scored of 32; every
//   block's attention weights are still computed in full.
// - live: as scored, and each sequence's positions after its last scored one are dropped in every block
//   (they can reach no scored position), and the last block's queries before its first one: an induction
//   sequence's last scored position is 23 of 0 .. 31 on average. The attention weights are then not whole:
//   attention_weights() is for the other two modes.
enum class Rows { all, scored, live };

class GptNet {
public:
    explicit GptNet(GptLayout layout);
    const GptLayout& layout() const { return layout_; }

    // ids and targets: batch x tokens (tokens <= context_length), targets -100 where not scored; the ids
    // are checked against the vocabulary by the caller. With `dropout` (model.train() and drop_rate > 0)
    // the masks are drawn from it in the order GPTModel.forward draws them; null is model.eval().
    LossStats forward(const std::vector<float>& params, const std::int64_t* ids, const std::int64_t* targets,
                      std::size_t batch, std::size_t tokens, TorchGenerator* dropout, Rows rows = Rows::all);
    // The last forward's loss again, run from block `layer`'s out_proj on with `params`: what forward would give
    // with params that differ from its own only in block `layer`'s out_proj, norm2 or feed-forward and anything
    // after that block (the head report zeroes a head's columns of out_proj this way, without running the blocks
    // before it again). Needs an eval-mode forward (no dropout) whose ids and targets are still alive, and since
    // it overwrites what the blocks after `layer` kept, the blocks up to `layer` must be the ones to reuse: call
    // it for a layer, then for the same or an earlier one, never a later one.
    LossStats forward_from_block(const std::vector<float>& params, std::size_t layer);
    // forward_from_block of the last block.
    LossStats forward_last_block_tail(const std::vector<float>& params);
    // The gradient of the last forward's mean loss with respect to every parameter (grads is resized).
    void backward(const std::vector<float>& params, std::vector<float>& grads);

    // The last forward's logits, logit_rows() x vocab: every position (batch x tokens) after Rows::all, the
    // scored positions in order after Rows::scored. Only the first logit_rows() rows are meaningful.
    const std::vector<float>& logits() const { return logits_; }
    std::size_t logit_rows() const { return post_rows_; }
    // The last forward's attention weights of block `layer`: (batch, heads, tokens, tokens), before dropout;
    // not after Rows::live.
    const std::vector<float>& attention_weights(std::size_t layer) const;

private:
    struct Block {
        std::vector<float> xhat1, rstd1, h1, qkv, wt, noise_w, ctx, noise1, mid, xhat2, rstd2, h2, a, g, tanh, noise2;
        // The module-layout weights, from wt and sized when asked for (a training step does not need them).
        mutable std::vector<float> w;
        mutable bool w_current = false;
        std::vector<float> ctx_rows; // the last block with Rows::scored: ctx at the scored positions
    };
    void size_buffers(std::size_t batch, std::size_t tokens);
    // Block l whole, on the rows the forward chose: norm1, the projections, attention, per_position.
    void run_block(const std::vector<float>& params, std::size_t l, TorchGenerator* dropout);
    void draw_rows(std::vector<float>& noise, bool gather, TorchGenerator& gen);
    // Block l after its attention: out_proj, the shortcut, norm2, the feed-forward, the shortcut; on the scored
    // rows (ctx_rows, x_rows_) when it is the last block and the forward gathers them.
    void per_position(const float* P, std::size_t l, TorchGenerator* dropout);
    LossStats head_and_loss(const float* P); // final_norm, out_head, the cross-entropy
    // Block `layer`'s attention shape as the last forward ran it: its ragged rows and skipped queries.
    AttentionDims attention_dims(std::size_t layer) const;
    const std::size_t* ragged_starts() const; // starts_ under Rows::live, else null
    bool gathers(std::size_t layer) const;    // block `layer`'s per-position part runs on the scored rows only
    // The three projections of a block into one (n x 3 d_out) buffer, q | k | v in each row: one GEMM when
    // W_query, W_key and W_value sit one after another (no qkv_bias), three otherwise.
    void project_qkv(const std::vector<float>& params, std::size_t layer);
    void project_qkv_backward(const std::vector<float>& params, std::vector<float>& grads, std::size_t layer);
    KvGroups kv_groups() const; // the projections' widths: kv_width is d_out unless grouped

    GptLayout layout_;
    std::size_t batch_ = 0, tokens_ = 0;
    const std::int64_t* ids_ = nullptr;
    const std::int64_t* targets_ = nullptr;
    bool dropout_ = false;
    bool gathered_ = false;                 // the last block's per-position part ran on the scored rows only
    bool trimmed_ = false;                  // Rows::live: every buffer holds the live rows only
    std::size_t rows_ = 0;                  // rows of every block's buffers: batch x tokens, or the live count
    std::size_t post_rows_ = 0;             // rows of the last block's per-position part: rows_, or the scored count
    std::vector<std::size_t> starts_;       // Rows::live: sequence b's rows are starts_[b] .. starts_[b + 1]
    std::vector<std::size_t> live_;         // Rows::live: the position (b x tokens + t) of every buffer row
    std::vector<std::size_t> first_scored_; // Rows::live: sequence b's first scored position (its length if none)
    std::vector<std::size_t> scored_;       // the scored buffer rows, ascending (Rows::scored and live)
    std::vector<std::size_t> scored_at_;    // their positions (b x tokens + t), where the dropout masks are
    std::vector<std::int64_t> scored_targets_;
    std::vector<float> x_rows_, noise_full_;
    std::vector<std::vector<float>> xs_; // block inputs, then the last block's output
    std::vector<Block> blocks_;
    std::vector<float> noise_emb_, xhat_f_, rstd_f_, hf_, logits_, dlogits_;
    std::vector<float> dx_, dh_, dwide_, dwide2_, dqkv_, dtmp_, dcol_;
    std::vector<float> narrow_; // grouped: the projections' rows (q, the key heads, the value heads) or their gradient
};

} // namespace attnlab::train
