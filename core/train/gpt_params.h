#pragma once
// The parameters of the book's chapter 4 GPTModel as one flat buffer, each tensor at an offset under its
// state_dict name (tok_emb.weight, trf_blocks.0.att.W_query.weight, ..., out_head.weight), in the order
// model.state_dict() lists them. The trainer, AdamW and the files all walk this one table.
#include "gpt/gpt_config.h"
#include "tensor/torch_random.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Throws Error with one sentence when GPTModel(cfg) could not be built or trained: sizes below 1,
// emb_dim not divisible by n_heads (the book's assert), n_kv_groups not dividing n_heads (naming the divisors),
// drop_rate outside [0, 1).
void check_gpt_config(const GptConfig& config);
std::string divisor_list(std::int64_t n); // "1, 2, 4, 8" for 8

struct ParamEntry {
    std::string name;
    std::vector<std::int64_t> shape;
    std::size_t offset = 0, size = 0;
};

// Where each block's tensors sit in the buffer.
struct BlockParams {
    std::size_t wq, bq, wk, bk, wv, bv, wo, bo; // bq/bk/bv unused without qkv_bias
    std::size_t ff1_w, ff1_b, ff2_w, ff2_b;
    std::size_t norm1_scale, norm1_shift, norm2_scale, norm2_shift;
};

struct GptLayout {
    GptConfig shape;
    std::vector<ParamEntry> entries; // state_dict order, the attention masks (buffers) left out
    std::size_t total = 0;
    std::size_t tok_emb = 0, pos_emb = 0, final_scale = 0, final_shift = 0, out_head = 0;
    std::vector<BlockParams> blocks;

    const ParamEntry* find(const std::string& name) const;
};

GptLayout gpt_layout(const GptConfig& shape);

// torch.manual_seed(seed); GPTModel(cfg): the embeddings' normal_, every Linear's kaiming-uniform weight
// and bias, the LayerNorms' ones and zeros, drawn in the constructor's order. `gen` is left where torch's
// default generator is afterwards (the dropout masks of training continue from there).
std::vector<float> init_gpt_params(const GptLayout& layout, TorchGenerator& gen);

} // namespace attnlab
