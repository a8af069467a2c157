#pragma once
// PyTorch's allclose, as the golden README states it: |a - b| <= atol + rtol * |b|, non-finite
// entries equal exactly. Returns an empty string when the tensors agree, else what differs first.
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace testing {

struct Tolerance {
    double rtol = 1e-4;
    double atol = 2e-5;
};

std::string compare_tensors(const attnlab::Tensor& observed, const attnlab::Tensor& expected, Tolerance tol = {});
// Every *.safetensors file in a folder, sorted; empty when the folder does not exist.
std::vector<std::string> safetensors_files(const std::string& folder);

} // namespace testing
