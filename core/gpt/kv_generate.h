#pragma once
// Greedy generation through the book's GPT, token by token: with the KV cache (kv_cache.h: the prompt once,
// then one token's rows a step) or without it (gpt_forward over the whole sequence at every step), each step
// timed, so the two can be set side by side and their logits compared.
#include "gpt/gpt_model.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace attnlab {

struct GenerateStep {
    std::int64_t id = 0;           // the token chosen: the likeliest, the lowest id on a tie
    std::int64_t tokens_seen = 0;  // tokens the step's forward read: in the cache after it, or the sequence's length
    std::uint64_t cache_bytes = 0; // every layer's keys and values after the step; 0 without the cache
    double ms = 0;                 // wall time of the step's forward
    std::vector<float> logits;     // the last token's, when GenerateOptions::keep_logits
};

struct GenerateOptions {
    std::int64_t tokens = 1; // how many to generate
    bool cache = true;
    bool keep_logits = false;
    bool keep_cache = false; // with the cache: every layer's keys and values at the end, into Generation
    // Without the cache: feed these ids (another run's choices) instead of its own, so the two runs' logits are
    // compared on the same sequence even where a near tie could make them choose differently.
    const std::vector<std::int64_t>* follow = nullptr;
    std::uint64_t budget = std::numeric_limits<std::uint64_t>::max(); // for the cache's bytes
};

struct Generation {
    std::vector<std::int64_t> ids; // the generated ids, prompt not included
    std::vector<GenerateStep> steps;
    // With keep_cache, per layer (n_heads, T, head_dim): the prompt and every generated token but the last, which
    // no step has read yet.
    std::vector<Tensor> keys, values;
    double mean_ms() const;
};

// Throws Error, before any step, when the prompt is empty or holds an id outside the vocabulary, fewer than 1
// token is asked for, or the prompt and the tokens would pass context_length (the last new token is chosen from
// a forward over prompt + tokens - 1 positions).
Generation generate_greedy(const GptModel& model, double eps, const std::vector<std::int64_t>& prompt,
                           const GenerateOptions& options);

// The largest |a - b| over every step's logits (both generated with keep_logits).
double max_logit_difference(const Generation& a, const Generation& b);
// The largest |logit| over every step kept: the scale a difference is read against (float keeps about 7 digits).
double largest_abs_logit(const Generation& g);

} // namespace attnlab
