// The checkpoint variant of the transfer: GPT-2 fuses query, key and value into one Conv1D weight
// c_attn (d, 3d) applied as x @ W; nn.Linear wants three (out, in) matrices applied as x @ W.T.
#include "lessons/transfer.h"
#include "lessons/transfer_detail.h"

#include "tensor/error.h"
#include "tensor/torch_random.h"
#include "tensor/tensor_ops.h"

#include <cmath>

namespace attnlab {

namespace {

// Columns [first, first + count) of a 2-D tensor, as a contiguous copy.
Tensor columns(const Tensor& t, std::int64_t first, std::int64_t count)
{
    std::vector<float> values;
    values.reserve(static_cast<std::size_t>(t.size(0) * count));
    for (std::int64_t r = 0; r < t.size(0); ++r)
        for (std::int64_t c = first; c < first + count; ++c)
            values.push_back(t.at({r, c}));
    return Tensor::from_values({t.size(0), count}, std::move(values));
}

Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v)
{
    const Tensor scores = ops::matmul(q, k.transpose(0, 1));
    return ops::matmul(ops::softmax(ops::divide(scores, static_cast<float>(std::sqrt(double(k.size(-1))))), -1), v);
}

} // namespace

Gpt2Split split_c_attn(const Tensor& c_attn)
{
    if (c_attn.dim() != 2 || c_attn.size(1) != 3 * c_attn.size(0))
        throw Error("c_attn.weight must be (d, 3d): GPT-2 fuses query, key and value along the last axis, but it is " +
                    shape_to_string(c_attn.shape()) + ".");
    const std::int64_t d = c_attn.size(0);
    Gpt2Split split;
    for (std::int64_t part = 0; part < 3; ++part) {
        split.parts[static_cast<std::size_t>(part)] = columns(c_attn, part * d, d);
        // A transposed view, as .T is in PyTorch: same storage, swapped strides.
        split.weights[static_cast<std::size_t>(part)] = split.parts[static_cast<std::size_t>(part)].transpose(0, 1);
    }
    return split;
}

TransferResult run_gpt2_transfer(const TransferSpec& spec, std::int64_t d, std::uint64_t seed, std::int64_t num_tokens)
{
    if (d < 1)
        throw Error("the embedding width d must be at least 1, not " + std::to_string(d) + ".");
    // A checkpoint-like c_attn, uniform in +-1/sqrt(d) like a freshly initialised layer.
    TorchGenerator gen(seed);
    std::vector<float> values(static_cast<std::size_t>(3 * d * d));
    linear_bias_uniform(values.data(), values.size(), d, gen); // uniform in +-1/sqrt(d)
    const Tensor c_attn = Tensor::from_values({d, 3 * d}, std::move(values));
    const Config v2{ModuleKind::SelfAttentionV2, d, d};
    const Tensor x = random_input(v2, 1, num_tokens, seed + 1);
    const Gpt2Split split = split_c_attn(c_attn);

    TransferResult r;
    r.target = init_weights(v2, seed + 2);
    const char* names[] = {"W_query.weight", "W_key.weight", "W_value.weight"};
    Tensor source[3], target[3];
    for (std::size_t i = 0; i < 3; ++i) {
        const TransferLine& line = spec.lines[i];
        if (line.written)
            r.target[names[i]] = line.transpose ? split.weights[i] : split.parts[i];
        source[i] = ops::matmul(x, split.parts[i]); // GPT-2's Conv1D: x @ W
        target[i] = ops::linear(x, r.target[names[i]], nullptr);
    }
    r.source_output = attend(source[0], source[1], source[2]);
    r.target_output = attend(target[0], target[1], target[2]);
    return detail::finish_transfer(
        std::move(r), spec, true,
        "each part of c_attn was transposed from Conv1D's (in, out) into nn.Linear's (out, in)");
}

} // namespace attnlab
