// GPT-2's tokenizer, timed: reading the shipped files, and encoding The Verdict (20,479 characters, 5,145
// tokens) with the cache of merged pieces cold (a new tokenizer) and warm (the same one again), as medians.
//   bench_gpt2_tokenizer [--repeat R] [--smoke]
#include "text/gpt2_tokenizer.h"
#include "text/gpt2_tokenizer_files.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int repeat = 15;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--smoke"))
            repeat = 1;
        else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = std::max(1, std::atoi(argv[++i]));
    }
    using namespace attnlab;
    const Gpt2TokenizerFiles files = resolve_gpt2_tokenizer("gpt2", gpt2_tokenizer_dirs(""));
    const std::string_view story = verdict_story();
    std::vector<double> load, cold, warm;
    std::size_t tokens = 0;
    for (int r = 0; r < repeat; ++r) {
        auto start = Clock::now();
        const Gpt2Tokenizer tokenizer = Gpt2Tokenizer::from_files(files);
        load.push_back(ms_since(start));
        start = Clock::now();
        tokens = tokenizer.encode(story, false).size();
        cold.push_back(ms_since(start));
        start = Clock::now();
        tokens = std::min(tokens, tokenizer.encode(story, false).size());
        warm.push_back(ms_since(start));
    }
    const double chars_per_ms = static_cast<double>(story.size()) / median(cold);
    std::printf("gpt2 tokenizer: load %.1f ms; The Verdict (%zu bytes) -> %zu tokens in %.2f ms cold cache, %.2f ms "
                "warm (medians of %d; %.1f MB/s cold)\n",
                median(load), story.size(), tokens, median(cold), median(warm), repeat, chars_per_ms / 1000.0);
    return tokens == 5145 ? 0 : 1;
}
