#include "train/gpt_net.h"

#include "train/kv_groups.h"
#include "train/train_attention.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attnlab::train {

namespace {

void draw_noise(std::vector<float>& noise, std::size_t n, double p, TorchGenerator& gen)
{
    // nn.Dropout in training: noise = bernoulli_(1 - p) / float(1 - p), output = input * noise.
    noise.resize(n);
    bernoulli_(noise.data(), n, 1.0 - p, gen);
    const float keep = static_cast<float>(1.0 - p);
    for (float& x : noise)
        x /= keep;
}

void multiply(float* x, const std::vector<float>& noise)
{
    for (std::size_t i = 0; i < noise.size(); ++i)
        x[i] *= noise[i];
}

void add_into(float* y, const float* x, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        y[i] += x[i];
}

void gather_rows(const float* x, const std::vector<std::size_t>& rows, std::size_t d, float* out)
{
    for (std::size_t i = 0; i < rows.size(); ++i)
        std::copy_n(x + rows[i] * d, d, out + i * d);
}

// The inverse of gather_rows in place: x's first rows.size() rows move to rows[i] (ascending, so rows[i] >= i
// and going down never overwrites a row still to move), every other of the n rows becomes zero.
void scatter_rows_in_place(float* x, const std::vector<std::size_t>& rows, std::size_t n, std::size_t d)
{
    std::size_t end = n; // rows [rows[i] + 1, end) are not scored
    for (std::size_t i = rows.size(); i-- > 0;) {
        const std::size_t r = rows[i];
        std::fill(x + (r + 1) * d, x + end * d, 0.0f);
        if (r != i)
            std::copy_n(x + i * d, d, x + r * d);
        end = r;
    }
    std::fill(x, x + end * d, 0.0f);
}

} // namespace

bool GptNet::gathers(std::size_t layer) const
{
    return gathered_ && layer + 1 == blocks_.size();
}

const std::size_t* GptNet::ragged_starts() const
{
    return trimmed_ ? starts_.data() : nullptr;
}

AttentionDims GptNet::attention_dims(std::size_t layer) const
{
    const GptConfig& s = layout_.shape;
    AttentionDims dims{batch_,
                       tokens_,
                       static_cast<std::size_t>(s.n_heads),
                       static_cast<std::size_t>(s.head_dim()),
                       3 * static_cast<std::size_t>(s.emb_dim),
                       ragged_starts()};
    dims.window = static_cast<std::size_t>(s.window);
    // Under Rows::live only the last block's queries at and after the first scored position are read.
    if (trimmed_ && layer + 1 == blocks_.size())
        dims.query_from = first_scored_.data();
    return dims;
}

GptNet::GptNet(GptLayout layout) : layout_(std::move(layout)), blocks_(layout_.blocks.size()) {}

void GptNet::size_buffers(std::size_t batch, std::size_t tokens)
{
    batch_ = batch;
    tokens_ = tokens;
    const std::size_t n = batch * tokens, d = static_cast<std::size_t>(layout_.shape.emb_dim);
    const std::size_t heads = static_cast<std::size_t>(layout_.shape.n_heads);
    xs_.resize(blocks_.size() + 1);
    for (auto& x : xs_)
        x.resize(n * d);
    for (Block& b : blocks_) {
        for (auto* buf : {&b.xhat1, &b.h1, &b.ctx, &b.mid, &b.xhat2, &b.h2})
            buf->resize(n * d);
        b.qkv.resize(n * 3 * d);
        b.rstd1.resize(n);
        b.rstd2.resize(n);
        b.wt.resize(attention_t_floats({batch, tokens, heads, static_cast<std::size_t>(layout_.shape.head_dim())}));
        b.a.resize(n * 4 * d);
        b.g.resize(n * 4 * d);
        b.tanh.resize(n * 4 * d);
    }
    dcol_.resize(n * d); // project_qkv's column of q, k or v with qkv_bias
    xhat_f_.resize(n * d);
    rstd_f_.resize(n);
    hf_.resize(n * d);
    const std::size_t vocab = static_cast<std::size_t>(layout_.shape.vocab_size);
    logits_.resize(n * vocab);
    dlogits_.resize(n * vocab);
}

LossStats GptNet::forward(const std::vector<float>& params, const std::int64_t* ids, const std::int64_t* targets,
                          std::size_t batch, std::size_t tokens, TorchGenerator* dropout, Rows rows)
{
    size_buffers(batch, tokens);
    ids_ = ids;
    const GptConfig& s = layout_.shape;
    dropout_ = dropout && s.drop_rate > 0.0;
    const std::size_t n = batch * tokens, d = static_cast<std::size_t>(s.emb_dim);
    gathered_ = rows != Rows::all;
    trimmed_ = rows == Rows::live;
    starts_.assign(batch + 1, 0);
    first_scored_.assign(batch, 0);
    live_.clear();
    for (std::size_t b = 0; b < batch; ++b) {
        std::size_t length = tokens; // Rows::live: up to the last scored position
        if (trimmed_) {
            length = 0;
            std::size_t first = tokens;
            for (std::size_t t = 0; t < tokens; ++t)
                if (targets[b * tokens + t] != kIgnoreIndex) {
                    first = std::min(first, t);
                    length = t + 1;
                }
            first_scored_[b] = std::min(first, length);
            for (std::size_t t = 0; t < length; ++t)
                live_.push_back(b * tokens + t);
        }
        starts_[b + 1] = starts_[b] + length;
    }
    rows_ = starts_[batch];
    scored_.clear();
    scored_at_.clear();
    scored_targets_.clear();
    if (gathered_)
        for (std::size_t r = 0; r < rows_; ++r) {
            const std::size_t at = trimmed_ ? live_[r] : r;
            if (targets[at] != kIgnoreIndex) {
                scored_.push_back(r);
                scored_at_.push_back(at);
                scored_targets_.push_back(targets[at]);
            }
        }
    post_rows_ = gathered_ ? scored_.size() : n;
    const float* P = params.data();
    embedding_forward(ids, batch, tokens, P + layout_.tok_emb, P + layout_.pos_emb, d, xs_[0].data(), ragged_starts());
    if (dropout_) {
        draw_rows(noise_emb_, false, *dropout);
        multiply(xs_[0].data(), noise_emb_);
    }
    for (std::size_t l = 0; l < blocks_.size(); ++l)
        run_block(params, l, dropout_ ? dropout : nullptr);
    targets_ = targets;
    return head_and_loss(P);
}

void GptNet::run_block(const std::vector<float>& params, std::size_t l, TorchGenerator* dropout)
{
    const float* P = params.data();
    const GptConfig& s = layout_.shape;
    const std::size_t d = static_cast<std::size_t>(s.emb_dim), nr = rows_;
    Block& b = blocks_[l];
    const BlockParams& o = layout_.blocks[l];
    const float* x = xs_[l].data();
    layer_norm_forward(x, nr, d, P + o.norm1_scale, P + o.norm1_shift, b.h1.data(), b.xhat1.data(), b.rstd1.data());
    project_qkv(params, l);
    if (dropout)
        draw_noise(b.noise_w, batch_ * static_cast<std::size_t>(s.n_heads) * tokens_ * tokens_, s.drop_rate, *dropout);
    b.w_current = false;
    attention_forward(attention_dims(l), b.qkv.data(), b.qkv.data() + d, b.qkv.data() + 2 * d, nullptr, b.wt.data(),
                      dropout ? b.noise_w.data() : nullptr, b.ctx.data());
    // From here on every operation is per position: the last block may run it on the scored rows only.
    if (gathers(l)) {
        const std::size_t m = scored_.size();
        b.ctx_rows.resize(m * d);
        x_rows_.resize(m * d);
        gather_rows(b.ctx.data(), scored_, d, b.ctx_rows.data());
        gather_rows(x, scored_, d, x_rows_.data());
    }
    per_position(P, l, dropout);
}

void GptNet::draw_rows(std::vector<float>& noise, bool gather, TorchGenerator& gen)
{
    // A per-position dropout mask, drawn whole so the generator advances as GPTModel's does, and kept at the
    // positions of the buffer's rows: the live ones, or the scored ones where the block's per-position part
    // is gathered.
    const std::size_t n = batch_ * tokens_, d = static_cast<std::size_t>(layout_.shape.emb_dim);
    const double p = layout_.shape.drop_rate;
    const std::vector<std::size_t>* keep = gather ? &scored_at_ : trimmed_ ? &live_ : nullptr;
    if (!keep)
        return draw_noise(noise, n * d, p, gen);
    draw_noise(noise_full_, n * d, p, gen);
    noise.resize(keep->size() * d);
    gather_rows(noise_full_.data(), *keep, d, noise.data());
}

void GptNet::per_position(const float* P, std::size_t l, TorchGenerator* dropout)
{
    Block& b = blocks_[l];
    const BlockParams& o = layout_.blocks[l];
    const std::size_t d = static_cast<std::size_t>(layout_.shape.emb_dim);
    const bool gather = gathers(l);
    const std::size_t m = gather ? scored_.size() : rows_;
    const float* ctx = gather ? b.ctx_rows.data() : b.ctx.data();
    const float* shortcut = gather ? x_rows_.data() : xs_[l].data();
    linear_forward(ctx, m, d, P + o.wo, P + o.bo, d, b.mid.data());
    if (dropout) {
        draw_rows(b.noise1, gather, *dropout);
        multiply(b.mid.data(), b.noise1);
    }
    add_into(b.mid.data(), shortcut, m * d);
    layer_norm_forward(b.mid.data(), m, d, P + o.norm2_scale, P + o.norm2_shift, b.h2.data(), b.xhat2.data(),
                       b.rstd2.data());
    linear_forward(b.h2.data(), m, d, P + o.ff1_w, P + o.ff1_b, 4 * d, b.a.data());
    gelu_forward(b.a.data(), m * 4 * d, b.g.data(), b.tanh.data());
    float* out = xs_[l + 1].data();
    linear_forward(b.g.data(), m, 4 * d, P + o.ff2_w, P + o.ff2_b, d, out);
    if (dropout) {
        draw_rows(b.noise2, gather, *dropout);
        multiply(out, b.noise2);
    }
    add_into(out, b.mid.data(), m * d);
}

LossStats GptNet::head_and_loss(const float* P)
{
    const std::size_t m = post_rows_, d = static_cast<std::size_t>(layout_.shape.emb_dim);
    const std::size_t vocab = static_cast<std::size_t>(layout_.shape.vocab_size);
    layer_norm_forward(xs_.back().data(), m, d, P + layout_.final_scale, P + layout_.final_shift, hf_.data(),
                       xhat_f_.data(), rstd_f_.data());
    linear_forward(hf_.data(), m, d, P + layout_.out_head, nullptr, vocab, logits_.data());
    return cross_entropy(logits_.data(), gathered_ ? scored_targets_.data() : targets_, m, vocab, dlogits_.data());
}

LossStats GptNet::forward_from_block(const std::vector<float>& params, std::size_t layer)
{
    if (blocks_.empty() || !targets_ || dropout_)
        throw std::logic_error("GptNet::forward_from_block needs an eval-mode forward before it");
    if (layer >= blocks_.size())
        throw std::logic_error("GptNet::forward_from_block: no block " + std::to_string(layer));
    // Block `layer`'s input and attention output are the last whole forward's: only its per-position part
    // and the blocks after it run again, each exactly as forward runs it.
    per_position(params.data(), layer, nullptr);
    for (std::size_t l = layer + 1; l < blocks_.size(); ++l)
        run_block(params, l, nullptr);
    return head_and_loss(params.data());
}

LossStats GptNet::forward_last_block_tail(const std::vector<float>& params)
{
    return forward_from_block(params, blocks_.empty() ? 0 : blocks_.size() - 1);
}

const std::vector<float>& GptNet::attention_weights(std::size_t layer) const
{
    if (trimmed_)
        throw std::logic_error("GptNet::attention_weights after a Rows::live forward, which keeps them only in part");
    const Block& b = blocks_[layer];
    if (!b.w_current) {
        b.w.resize(batch_ * static_cast<std::size_t>(layout_.shape.n_heads) * tokens_ * tokens_);
        attention_weights_from_t(attention_dims(layer), b.wt.data(), b.w.data());
        b.w_current = true;
    }
    return b.w;
}

void GptNet::backward(const std::vector<float>& params, std::vector<float>& grads)
{
    const GptConfig& s = layout_.shape;
    grads.assign(layout_.total, 0.0f);
    const std::size_t n = batch_ * tokens_, d = static_cast<std::size_t>(s.emb_dim);
    const std::size_t vocab = static_cast<std::size_t>(s.vocab_size);
    const float* P = params.data();
    float* G = grads.data();
    for (auto* buf : {&dx_, &dh_, &dtmp_})
        buf->resize(n * d);
    dqkv_.resize(n * 3 * d);
    dwide_.resize(n * 4 * d);
    dwide2_.resize(n * 4 * d);
    const std::size_t last_rows = post_rows_;
    linear_backward(hf_.data(), last_rows, d, P + layout_.out_head, vocab, dlogits_.data(), dh_.data(),
                    G + layout_.out_head, nullptr);
    layer_norm_backward(dh_.data(), xhat_f_.data(), rstd_f_.data(), P + layout_.final_scale, last_rows, d, dx_.data(),
                        G + layout_.final_scale, G + layout_.final_shift);
    const std::size_t nr = rows_;
    for (std::size_t l = blocks_.size(); l-- > 0;) {
        Block& b = blocks_[l];
        const BlockParams& o = layout_.blocks[l];
        const bool gather = gathers(l);
        const std::size_t m = gather ? last_rows : nr; // rows of the per-position part
        // dx_ holds d(loss)/d(block output) = d(mid) through the shortcut, and d(ff out) before dropout.
        std::copy_n(dx_.begin(), m * d, dtmp_.begin());
        if (dropout_)
            multiply(dtmp_.data(), b.noise2);
        linear_backward(b.g.data(), m, 4 * d, P + o.ff2_w, d, dtmp_.data(), dwide_.data(), G + o.ff2_w, G + o.ff2_b);
        gelu_backward(b.a.data(), b.tanh.data(), dwide_.data(), m * 4 * d, dwide2_.data());
        linear_backward(b.h2.data(), m, d, P + o.ff1_w, 4 * d, dwide2_.data(), dh_.data(), G + o.ff1_w, G + o.ff1_b);
        layer_norm_backward(dh_.data(), b.xhat2.data(), b.rstd2.data(), P + o.norm2_scale, m, d, dtmp_.data(),
                            G + o.norm2_scale, G + o.norm2_shift);
        add_into(dx_.data(), dtmp_.data(), m * d); // now d(mid)
        std::copy_n(dx_.begin(), m * d, dtmp_.begin());
        if (dropout_)
            multiply(dtmp_.data(), b.noise1);
        linear_backward(gather ? b.ctx_rows.data() : b.ctx.data(), m, d, P + o.wo, d, dtmp_.data(), dh_.data(),
                        G + o.wo, G + o.bo);
        if (gather) { // back to every position: the unscored ones' d(mid) and d(ctx) are zero
            scatter_rows_in_place(dx_.data(), scored_, nr, d);
            scatter_rows_in_place(dh_.data(), scored_, nr, d);
        }
        attention_backward(attention_dims(l), b.qkv.data(), b.qkv.data() + d, b.qkv.data() + 2 * d, b.wt.data(),
                           dropout_ ? b.noise_w.data() : nullptr, dh_.data(), dqkv_.data(), dqkv_.data() + d,
                           dqkv_.data() + 2 * d);
        project_qkv_backward(params, grads, l);
        layer_norm_backward(dh_.data(), b.xhat1.data(), b.rstd1.data(), P + o.norm1_scale, nr, d, dtmp_.data(),
                            G + o.norm1_scale, G + o.norm1_shift);
        add_into(dx_.data(), dtmp_.data(), nr * d);
    }
    if (dropout_)
        multiply(dx_.data(), noise_emb_);
    embedding_backward(ids_, batch_, tokens_, dx_.data(), vocab, d, G + layout_.tok_emb, G + layout_.pos_emb,
                       ragged_starts());
}

void GptNet::project_qkv(const std::vector<float>& params, std::size_t layer)
{
    const GptConfig& s = layout_.shape;
    const std::size_t n = rows_, d = static_cast<std::size_t>(s.emb_dim);
    const KvGroups g = kv_groups();
    const BlockParams& o = layout_.blocks[layer];
    Block& b = blocks_[layer];
    const float* P = params.data();
    // Grouped keys and values are projected narrow, then each key/value head copied to its query heads.
    float* out = b.qkv.data();
    if (s.grouped()) {
        narrow_.resize(n * g.narrow());
        out = narrow_.data();
    }
    if (!s.qkv_bias) // W_query, W_key, W_value: one (d + 2 kv_width) x d matrix in the buffer
        linear_forward(b.h1.data(), n, d, P + o.wq, nullptr, g.narrow(), out);
    else {
        const std::size_t w[] = {o.wq, o.wk, o.wv}, bias[] = {o.bq, o.bk, o.bv};
        const std::size_t width[] = {d, g.kv_width, g.kv_width}, at[] = {0, d, d + g.kv_width};
        for (int r = 0; r < 3; ++r) {
            linear_forward(b.h1.data(), n, d, P + w[r], P + bias[r], width[r], dcol_.data());
            for (std::size_t i = 0; i < n; ++i)
                std::copy_n(dcol_.data() + i * width[r], width[r], out + i * g.narrow() + at[r]);
        }
    }
    if (s.grouped())
        expand_kv_groups(g, narrow_.data(), n, b.qkv.data());
}

void GptNet::project_qkv_backward(const std::vector<float>& params, std::vector<float>& grads, std::size_t layer)
{
    // dqkv_ holds d(loss)/d(q | k | v), a key and a value head per query head; dh_ receives d(loss)/d(norm1
    // output). Grouped, the gradient of each shared key/value head is first summed over its query heads.
    const GptConfig& s = layout_.shape;
    const std::size_t n = rows_, d = static_cast<std::size_t>(s.emb_dim);
    const KvGroups g = kv_groups();
    const BlockParams& o = layout_.blocks[layer];
    const Block& b = blocks_[layer];
    const float* P = params.data();
    float* G = grads.data();
    const float* dy = dqkv_.data();
    if (s.grouped()) {
        narrow_.resize(n * g.narrow());
        sum_kv_groups(g, dqkv_.data(), n, narrow_.data());
        dy = narrow_.data();
    }
    if (!s.qkv_bias) {
        linear_backward(b.h1.data(), n, d, P + o.wq, g.narrow(), dy, dh_.data(), G + o.wq, nullptr);
        return;
    }
    const std::size_t w[] = {o.wq, o.wk, o.wv}, bias[] = {o.bq, o.bk, o.bv};
    const std::size_t width[] = {d, g.kv_width, g.kv_width}, at[] = {0, d, d + g.kv_width};
    for (int r = 0; r < 3; ++r) {
        for (std::size_t i = 0; i < n; ++i)
            std::copy_n(dy + i * g.narrow() + at[r], width[r], dcol_.data() + i * width[r]);
        linear_backward(b.h1.data(), n, d, P + w[r], width[r], dcol_.data(), r == 0 ? dh_.data() : dtmp_.data(),
                        G + w[r], G + bias[r]);
        if (r > 0)
            add_into(dh_.data(), dtmp_.data(), n * d);
    }
}

KvGroups GptNet::kv_groups() const
{
    const GptConfig& s = layout_.shape;
    return {static_cast<std::size_t>(s.emb_dim), static_cast<std::size_t>(s.kv_width()),
            static_cast<std::size_t>(s.head_dim())};
}

} // namespace attnlab::train
