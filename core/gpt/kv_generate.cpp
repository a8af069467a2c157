// Greedy decoding, the book's generate_text_simple: the argmax of the last token's logits, appended, again.
#include "gpt/kv_generate.h"

#include "gpt/gpt_blocks.h"
#include "gpt/gpt_forward.h"
#include "gpt/kv_cache.h"
#include "tensor/error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

namespace attnlab {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// std::max_element keeps the first of equal maxima: the lowest id, as torch.argmax does.
std::int64_t argmax(const std::vector<float>& logits)
{
    return std::max_element(logits.begin(), logits.end()) - logits.begin();
}

void check_request(const GptModel& m, const std::vector<std::int64_t>& prompt, const GenerateOptions& o)
{
    gpt_blocks::check_ids(m, prompt);
    const auto n = static_cast<std::int64_t>(prompt.size());
    const std::int64_t room = m.settings.context_length - n + 1;
    if (o.tokens < 1 || o.tokens > room)
        throw Error(std::string("generating ") + std::to_string(o.tokens) + " tokens after " + std::to_string(n) +
                    " prompt tokens is not possible: " + m.name + " reads at most " +
                    std::to_string(m.settings.context_length) + " (its " + m.context_length_name +
                    "), so ask for 1 to " + std::to_string(room) + ".");
    if (o.follow && static_cast<std::int64_t>(o.follow->size()) < o.tokens - 1)
        throw Error(std::string("the run to follow chose ") + std::to_string(o.follow->size()) + " tokens; " +
                    std::to_string(o.tokens - 1) + " are needed.");
}

void record(Generation& g, const GenerateOptions& o, std::vector<float> logits, std::int64_t seen, std::uint64_t bytes,
            double ms)
{
    GenerateStep s{argmax(logits), seen, bytes, ms, {}};
    if (o.keep_logits)
        s.logits = std::move(logits);
    g.ids.push_back(s.id);
    g.steps.push_back(std::move(s));
}

} // namespace

double Generation::mean_ms() const
{
    double total = 0;
    for (const GenerateStep& s : steps)
        total += s.ms;
    return steps.empty() ? 0.0 : total / static_cast<double>(steps.size());
}

Generation generate_greedy(const GptModel& model, double eps, const std::vector<std::int64_t>& prompt,
                           const GenerateOptions& o)
{
    check_request(model, prompt, o);
    Generation g;
    // The token fed at step i: this run's own choice, or the followed run's.
    auto fed = [&](std::size_t i) { return o.follow ? (*o.follow)[i] : g.ids[i]; };
    if (o.cache) {
        // The last new token is never fed back, so the cache needs prompt + tokens - 1 rows.
        KvGenerator kv(model, eps, static_cast<std::int64_t>(prompt.size()) + o.tokens - 1, o.budget);
        auto start = Clock::now();
        std::vector<float> logits = kv.prefill(prompt);
        record(g, o, std::move(logits), kv.tokens(), kv.bytes(), ms_since(start));
        for (std::int64_t i = 1; i < o.tokens; ++i) {
            start = Clock::now();
            logits = kv.step(fed(static_cast<std::size_t>(i - 1)));
            record(g, o, std::move(logits), kv.tokens(), kv.bytes(), ms_since(start));
        }
        for (int l = 0; o.keep_cache && l < kv.n_layers(); ++l) {
            g.keys.push_back(kv.layer(l).keys());
            g.values.push_back(kv.layer(l).values());
        }
        return g;
    }
    std::vector<std::int64_t> sequence = prompt;
    GptForwardOptions last_row; // the last token's logits only, no next-token list
    last_row.top = 0;
    for (std::int64_t i = 0; i < o.tokens; ++i) {
        if (i > 0)
            sequence.push_back(fed(static_cast<std::size_t>(i - 1)));
        const auto start = Clock::now();
        const GptForward f = gpt_forward(model, eps, sequence, last_row);
        const double ms = ms_since(start);
        record(g, o, {f.logits.data(), f.logits.data() + f.logits.numel()}, static_cast<std::int64_t>(sequence.size()),
               0, ms);
    }
    return g;
}

double max_logit_difference(const Generation& a, const Generation& b)
{
    if (a.steps.size() != b.steps.size())
        throw Error(std::string("the two runs generated ") + std::to_string(a.steps.size()) + " and " +
                    std::to_string(b.steps.size()) + " tokens; compare runs of the same length.");
    double most = 0;
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        const std::vector<float>&x = a.steps[i].logits, &y = b.steps[i].logits;
        if (x.size() != y.size() || x.empty())
            throw Error(std::string("step ") + std::to_string(i) +
                        " kept no logits to compare; generate with keep_logits.");
        for (std::size_t j = 0; j < x.size(); ++j)
            most = std::max(most, std::abs(static_cast<double>(x[j]) - y[j]));
    }
    return most;
}

double largest_abs_logit(const Generation& g)
{
    double most = 0;
    for (const GenerateStep& s : g.steps)
        for (float v : s.logits)
            most = std::max(most, std::abs(static_cast<double>(v)));
    return most;
}

} // namespace attnlab
