#pragma once
// torch.optim.AdamW (PyTorch 1.13, the single-tensor path it takes on CPU) over a flat parameter buffer:
// decoupled weight decay p *= 1 - lr * wd, moments m = b1 m + (1 - b1) g and v = b2 v + (1 - b2) g^2, bias
// corrections in double, p += -(lr / (1 - b1^t)) m / (sqrt(v) / sqrt(1 - b2^t) + eps). Every scalar is
// rounded to float where PyTorch's kernels round it; no amsgrad, no maximize.
#include <cstdint>
#include <vector>

namespace attnlab::train {

struct AdamWSettings {
    double lr = 1e-3;
    double beta1 = 0.9, beta2 = 0.999;
    double eps = 1e-8;
    double weight_decay = 0.01; // torch's default
};

class AdamW {
public:
    AdamW(std::size_t size, AdamWSettings settings);
    void step(std::vector<float>& params, const std::vector<float>& grads);
    std::int64_t steps() const { return step_; }
    const AdamWSettings& settings() const { return settings_; }

private:
    AdamWSettings settings_;
    std::vector<float> m_, v_;
    std::int64_t step_ = 0;
};

} // namespace attnlab::train
