// attention-lab-cli: the engine without a window. Exit codes: 0 success, 1 refused input (one
// sentence on stderr), 2 usage.
#include "cli/cli_commands.h"
#include "tensor/error.h"

#include <cstring>
#include <functional>
#include <iostream>
#include <map>

namespace {

const char* kUsage = R"USAGE(Usage: attention-lab-cli <command> [options]

Commands:
  validate --call C [--tokens T] [--batch B] [--json]
      Name every value of a constructor call by its slot, give head_dim and every diagnostic.
  trace --call C [--batch B] [--tokens T] [--seed S] [--train [--dropout-seed S2]] [--json]
      Run the forward pass and list every stage: code line, shape, strides, contiguity.
  run --call C [--weights F] [--layout torch|gpt2-hf] [--layer N] [--input F|book] [--batch B]
      [--tokens T] [--seed S] [--train [--dropout-seed S2]] [--max-memory SIZE] --dump OUT.safetensors
      Run the forward pass and write every stage to a safetensors file.
  run --model h1|h2|h4|h8|FILE [--layer L] [--text T] --dump OUT.safetensors [--json]
      One layer of a GPT trained on The Verdict: its attention input x and every stage, with its trained weights.
  tokenize --text T [--json]
      The book's chapter 2 simple tokenizer (vocabulary of The Verdict, 1,132 ids): tokens and ids.
  bench --call C --batch B --tokens T [--threads N] [--repeat R] [--json]
      Median milliseconds and GFLOP/s of the traced forward pass.
  diagnose --call C --bug NAME [--batch B] [--tokens T] [--seed S] [--max-memory SIZE] [--json]
      Run MultiHeadAttention with an injected bug beside the book's code; name the first stage that differs.
  transfer [--d-in A] [--d-out B] [--omit query|key|value]... [--no-transpose query|key|value]...
      [--seed S] [--tokens T] [--json]
      Copy SelfAttention_v2's weights into SelfAttention_v1 and compare the outputs: match, mismatch or error.
  contract --call C [--d-in-of-input N] [--tokens T] [--json]
      Name every value of a call by its slot and flag swapped or misplaced arguments.
  layout --call C [--json]
      Parameter blocks of MultiHeadAttention, the wrapper from the same call and the wrapper with matched width.
  equivalence --call C [--tokens T] [--batch B] [--seed S] [--json]
      Slice the integrated weights into a wrapper per head; compare its output with context.merged.
  tradeoffs --d-out N --tokens T [--batch B] [--d-in N] [--qkv-bias] [--json]
  tradeoffs --num-heads H [--d-out-min N] [--d-out-max N] [--d-in N] [--qkv-bias] [--json]
      Every valid num_heads for a width (cost, score memory), or every valid d_out for a head count.
  inspect FILE [--json]
      What a weights file (a module's state_dict or a GPT-2 checkpoint) says: layout, module, d_in, d_out,
      qkv_bias, layers, context_length; and the num_heads that d_out allows (the weights do not store it).
  compare FILE [--num-heads H] [--json]
      Your own module, recorded with attention_lab_probe.py, against the book's stages on the same weights
      and input: the first stage where it diverges (values, shape, error or missing), its line, a known bug.

Calls are Python constructor calls, e.g. "MultiHeadAttention(768, 768, 1024, 0.0, 12)".
--seed S is torch.manual_seed(S) before the module is constructed: the weights are PyTorch's, bit for bit.
With --train, dropout continues that stream; --dropout-seed S2 calls torch.manual_seed(S2) right before the forward.
Exit status: 0 success, 1 refused input, 2 usage.
)USAGE";

} // namespace

int main(int argc, char** argv)
{
    const std::map<std::string, std::function<int(const std::vector<std::string>&)>> commands = {
        {"validate", cli::cmd_validate},   {"trace", cli::cmd_trace},       {"run", cli::cmd_run},
        {"bench", cli::cmd_bench},         {"diagnose", cli::cmd_diagnose}, {"transfer", cli::cmd_transfer},
        {"contract", cli::cmd_contract},   {"layout", cli::cmd_layout},     {"equivalence", cli::cmd_equivalence},
        {"tradeoffs", cli::cmd_tradeoffs}, {"inspect", cli::cmd_inspect},   {"compare", cli::cmd_compare},
        {"tokenize", cli::cmd_tokenize}};
    if (argc < 2) { // one line on stderr, like every other usage error; --help prints the whole text
        std::cerr << "Usage: attention-lab-cli <command> [options], with a command among validate, trace, run, bench, "
                     "diagnose, transfer, contract, layout, equivalence, tradeoffs, inspect, compare and tokenize; "
                     "--help says more.\n";
        return 2;
    }
    if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        std::cout << kUsage;
        return 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "attention-lab-cli 0.1.0\n";
        return 0;
    }
    auto it = commands.find(argv[1]);
    if (it == commands.end()) {
        std::cerr << "attention-lab-cli: unknown command '" << argv[1]
                  << "'; try validate, trace, run, bench, diagnose, transfer, contract, layout, equivalence, "
                     "tradeoffs, inspect, compare or tokenize.\n";
        return 2;
    }
    try {
        return it->second(std::vector<std::string>(argv + 2, argv + argc));
    } catch (const cli::UsageError& e) {
        std::cerr << "attention-lab-cli " << argv[1] << ": " << e.what() << "\n";
        return 2;
    } catch (const attnlab::Error& e) {
        std::cerr << "attention-lab-cli " << argv[1] << ": " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "attention-lab-cli " << argv[1] << ": out of memory; ask for fewer tokens or a smaller batch.\n";
        return 1;
    }
}
