// The whole GPT-2 forward on a checkpoint, timed: opening it (header, plan, reading every tensor once) and the
// forward through every layer (embeddings, each block with its traced attention, final norm, the last token's
// logits and the top five), median over repetitions, at 1 and 2 engine threads. Kept per layer: x and the
// attention weights, as the overview needs them.
//
//   tests/bench/gpt2_forward.sh                  # makes a GPT-2-small-sized random checkpoint, then runs this
//   bench_gpt2_forward CHECKPOINT [--tokens T] [--repeat R] [--threads N]...   [--smoke]
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "tensor/error.h"
#include "tensor/threads.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

double now_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double peak_rss_mib()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::atof(line.c_str() + 6) / 1024.0;
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: bench_gpt2_forward CHECKPOINT [--tokens T] [--repeat R] [--threads N]... [--smoke]\n");
        return 2;
    }
    const std::string path = argv[1];
    std::int64_t tokens = 64;
    int repeat = 7;
    std::vector<int> threads;
    for (int i = 2; i < argc; ++i) {
        const bool value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--tokens") && value)
            tokens = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--repeat") && value)
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--threads") && value)
            threads.push_back(std::max(1, std::atoi(argv[++i])));
        else if (!std::strcmp(argv[i], "--smoke"))
            repeat = 1, tokens = std::min<std::int64_t>(tokens, 8);
        else {
            std::fprintf(stderr, "bench_gpt2_forward: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (threads.empty())
        threads = {1, 2};
    try {
        const double t0 = now_ms();
        const Gpt2Plan plan = plan_gpt2_checkpoint(path);
        const GptModel model = load_gpt2_checkpoint(plan, std::numeric_limits<std::uint64_t>::max());
        const double open_ms = now_ms() - t0;
        tokens = std::min(tokens, plan.settings.context_length);
        std::vector<std::int64_t> ids;
        for (std::int64_t t = 0; t < tokens; ++t)
            ids.push_back((t * 7919 + 464) % plan.settings.vocab_size);
        std::printf("%s\n%lld tokens, every layer; opened in %.0f ms\n", describe_gpt2_plan(plan).c_str(),
                    static_cast<long long>(tokens), open_ms);
        std::printf("| threads | median ms | min ms | per layer ms |\n|---|---|---|---|\n");
        for (int n : threads) {
            set_engine_threads(n);
            std::vector<double> ms;
            gpt_forward(model, plan.layer_norm_eps, ids); // warm-up: first-touch pages, GEMM buffers
            for (int r = 0; r < repeat; ++r) {
                const double start = now_ms();
                const GptForward out = gpt_forward(model, plan.layer_norm_eps, ids);
                ms.push_back(now_ms() - start);
                if (out.next.empty())
                    return 1;
            }
            std::sort(ms.begin(), ms.end());
            const double median = ms[ms.size() / 2];
            std::printf("| %d | %.1f | %.1f | %.2f |\n", n, median, ms.front(),
                        median / static_cast<double>(plan.settings.n_layers));
        }
        std::printf("peak RSS %.0f MiB\n", peak_rss_mib());
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_gpt2_forward: %s\n", e.what());
        return 1;
    }
    return 0;
}
