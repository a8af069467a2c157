#pragma once
// A small set of generic tensor operations with PyTorch's semantics -- broadcasting, batched matmul,
// view rules, in-place masked_fill_ and softmax over any axis -- and PyTorch's error messages when
// they refuse. The debugging lessons run deliberately broken forward passes through these, so a
// shape that the book's code never produces still does exactly what PyTorch would do with it.
// Clarity over speed: the lessons run small inputs; the engine's fast path is attention_kernels.
#include "tensor/tensor.h"

#include <cstdint>
#include <string>

namespace attnlab::ops {

// PyTorch prints shapes as lists in its messages: "[2, 6, 1, 1]".
std::string shape_list(const Shape& shape);

// torch.broadcast_shapes(a, b). Throws Error with PyTorch's "The size of tensor a (X) must match the
// size of tensor b (Y) at non-singleton dimension D" (D counted in the broadcast result).
Shape broadcast_shapes(const Shape& a, const Shape& b);

// torch.matmul for tensors of 2 or more dimensions: leading (batch) axes broadcast, the last two
// multiply. The message on a mismatch depends on the route PyTorch takes: 2-D and folded (3-D+ @ 2-D)
// products report "mat1 and mat2 shapes cannot be multiplied (AxB and CxD)", batched ones report
// bmm's "Expected size for first two dimensions of batch2 tensor to be: [B, K] but got: [B, K']."
Tensor matmul(const Tensor& a, const Tensor& b);

// nn.Linear: x @ weight.T (+ bias), weight (out, in); refuses with matmul's message.
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor* bias);

// Tensor.view with PyTorch's stride rule (computeStride): a non-contiguous tensor can be viewed when
// the axes being merged or split are contiguous among themselves; otherwise the "view size is not
// compatible ..." error. Tensor exposes no way to set arbitrary strides, so a view of a
// non-contiguous tensor that PyTorch allows comes back as a contiguous copy (same values and shape).
Tensor view(const Tensor& t, const Shape& shape);

// attn_scores.masked_fill_(mask, value), in place in PyTorch: the result keeps t's shape, `mask`
// (nonzero = fill) must broadcast to it; otherwise PyTorch's broadcasting error, or "output with shape
// [..] doesn't match the broadcast shape [..]" when the mask would make the result larger.
Tensor masked_fill(const Tensor& t, const Tensor& mask, float value);

// torch.softmax(t, dim): max-subtracted like PyTorch, so a row of only -inf gives NaN as it does there.
Tensor softmax(const Tensor& t, std::int64_t dim);

// t / divisor, elementwise (the book's `attn_scores / keys.shape[-1]**0.5`).
Tensor divide(const Tensor& t, float divisor);

// t + bias over the last axis (bias has t.size(-1) entries).
Tensor add_bias(const Tensor& t, const Tensor& bias);

// torch.triu(torch.ones(n, n), diagonal): ones on and above the given diagonal, zeros below.
Tensor triu_ones(std::int64_t n, std::int64_t diagonal);

// t[:rows, :cols] of a 2-D tensor, clamped to its size as Python slicing is.
Tensor slice2d(const Tensor& t, std::int64_t rows, std::int64_t cols);

} // namespace attnlab::ops
