// One training step of the book's GPTModel in core/train (forward, backward, AdamW) at the issue's
// settings unless told otherwise: emb 32, 2 layers, context 32, vocab 16, batch 64, induction batches,
// one engine thread. Prints the median milliseconds of --repeat steps after a warm-up, of wall time and of
// the thread's CPU time (on a shared machine the second is the steadier); train_speed.sh runs it beside
// PyTorch eager.
//   bench_train_step [--heads H] [--emb D] [--layers L] [--context T] [--batch B] [--repeat N]
#include "tensor/threads.h"
#include "train/adamw.h"
#include "train/gpt_net.h"
#include "train/tasks.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

using namespace attnlab;
using namespace attnlab::train;

int main(int argc, char** argv)
{
    GptConfig shape;
    long batch = 64, repeat = 100;
    for (int i = 1; i + 1 < argc; i += 2) {
        const long v = std::strtol(argv[i + 1], nullptr, 10);
        if (!std::strcmp(argv[i], "--heads"))
            shape.n_heads = v;
        else if (!std::strcmp(argv[i], "--emb"))
            shape.emb_dim = v;
        else if (!std::strcmp(argv[i], "--layers"))
            shape.n_layers = v;
        else if (!std::strcmp(argv[i], "--context"))
            shape.context_length = v;
        else if (!std::strcmp(argv[i], "--batch"))
            batch = v;
        else if (!std::strcmp(argv[i], "--repeat"))
            repeat = v;
    }
    set_engine_threads(1);
    const GptLayout layout = gpt_layout(shape);
    TorchGenerator gen(0);
    std::vector<float> params = init_gpt_params(layout, gen), grads;
    Task task("induction", shape.vocab_size, shape.context_length, 0);
    GptNet net(layout);
    AdamW opt(layout.total, {3e-3, 0.9, 0.999, 1e-8, 0.01});
    const auto cpu_ms = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
    };
    std::vector<double> ms, cpu;
    for (long s = 0; s < repeat + 10; ++s) {
        const Batch b = task.next_batch(static_cast<std::size_t>(batch));
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpu_ms();
        net.forward(params, b.ids.data(), b.targets.data(), b.batch, b.tokens, nullptr, Rows::live);
        net.backward(params, grads);
        opt.step(params, grads);
        if (s >= 10) {
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            cpu.push_back(cpu_ms() - c0);
        }
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf("%.3f %.3f\n", ms[ms.size() / 2], cpu[cpu.size() / 2]);
    return 0;
}
