// attention-lab-cli: the engine without a window. Exit codes: 0 success, 1 refused input (one
// sentence on stderr), 2 usage.
#include "cli/cli_commands.h"
#include "tensor/blas_kernel.h"
#include "tensor/threads.h"
#include "tensor/error.h"
#include "text/utf8.h"

#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

// Every command once: its name, what runs it and its usage (the synopsis lines, then what it does). The
// whole --help, `<command> --help` and the list of names in messages are all read from here.
struct Command {
    const char* name;
    int (*run)(const std::vector<std::string>&);
    const char* usage;
};

const Command kCommands[] = {
    {"validate", cli::cmd_validate,
     R"(  validate --call C [--tokens T] [--batch B] [--json]
      Name every value of a constructor call by its slot, give head_dim and every diagnostic.
)"},
    {"trace", cli::cmd_trace,
     R"(  trace --call C [--batch B] [--tokens T] [--seed S] [--train [--dropout-seed S2]] [--json]
      Run the forward pass and list every stage: code line, shape, strides, contiguity.
)"},
    {"run", cli::cmd_run,
     R"(  run --call C [--weights F] [--layout torch|gpt2-hf] [--layer N] [--input F|book] [--batch B]
      [--tokens T] [--seed S] [--train [--dropout-seed S2]] [--max-memory SIZE] --dump OUT.safetensors
      Run the forward pass and write every stage to a safetensors file.
  run --model h1|h2|h4|h8|induction-h4|FILE [--layer L] [--text T] --dump OUT.safetensors [--json]
      One layer of a GPT trained on The Verdict: its attention input x and every stage, with its trained weights.
      A model saved by train --save from a synthetic task (as the shipped induction-h4) reads its letters
      (--text 'A B C A B'); without --text it is shown a sequence of its task (induction: a run of letters
      and the same run again).
  run --model FOLDER|FILE (--text T | --ids I,J,...) [--layer L] [--dump OUT.safetensors] [--top] [--max-memory SIZE] [--json]
      A GPT-2 checkpoint (Hugging Face model.safetensors with its config.json, or the book's chapter 5 GPTModel):
      layer L's attention input x and every stage from the whole forward; --top, the five likeliest next ids.
      --text goes through the tokenizer files beside the checkpoint, else GPT-2's own.
)"},
    {"follow", cli::cmd_follow,
     R"(  follow --call C --stage NAME --index I,J,... [--input book|F] [--tokens T] [--batch B] [--seed S]
      [--weights F] [--json]
      One element of a stage: every stage where the same number lives (same storage or a copy, with its
      storage offset) and what it was computed from, recomputed from those alone.
)"},
    {"tokenize", cli::cmd_tokenize,
     R"(  tokenize (--text T | --text-file FILE) [--tokenizer book] [--json]
      The book's chapter 2 simple tokenizer (vocabulary of The Verdict, 1,132 ids): tokens and ids.
      --text-file reads the text from FILE ('-': standard input, up to 64 MiB), past a command line's 128 KiB.
  tokenize --tokenizer gpt2|FOLDER (--text T | --text-file FILE) [--special-as-text] [--max-memory SIZE] [--json]
      GPT-2's byte-level BPE (its own 50,257 ids, or vocab.json + merges.txt or encoder.json + vocab.bpe in
      FOLDER): ids and pieces, a space shown as ␣, a newline as ↵; <|endoftext|> is one token unless
      --special-as-text. --max-memory bounds the files' tables, counted before they are read.
)"},
    {"generate", cli::cmd_generate,
     R"(  generate --model h1|h2|h4|h8|induction-h4|FOLDER|FILE (--text T | --ids I,J,...) --tokens N
      [--no-cache | --compare] [--dump OUT.safetensors] [--json]
      Greedy generation, token by token, with a KV cache: each layer keeps every earlier token's keys and values,
      so a step computes only the new token's query, key and value. Per step: tokens in the cache, its bytes, ms.
      --no-cache reruns the whole forward at every step instead; --compare runs both on the same tokens, gives
      the mean ms per token of each and their largest |logit difference|. --dump writes each layer's cache as
      layer.{l}.keys and layer.{l}.values, (n_heads, T, head_dim).
)"},
    {"bench", cli::cmd_bench,
     R"(  bench --call C [--batch B] [--tokens T] [--threads N] [--repeat R] [--json]
      Median milliseconds and GFLOP/s of the traced forward pass (batch 1 and 6 tokens unless given).
)"},
    {"diagnose", cli::cmd_diagnose,
     R"(  diagnose --call C --bug NAME [--batch B] [--tokens T] [--seed S] [--max-memory SIZE] [--json]
      Run MultiHeadAttention with an injected bug beside the book's code; name the first stage that differs.
)"},
    {"transfer", cli::cmd_transfer,
     R"(  transfer [--d-in A] [--d-out B] [--omit query|key|value]... [--no-transpose query|key|value]...
      [--seed S] [--tokens T] [--json]
      Copy SelfAttention_v2's weights into SelfAttention_v1 and compare the outputs: match, mismatch or error.
)"},
    {"contract", cli::cmd_contract,
     R"(  contract --call C [--d-in-of-input N] [--tokens T] [--json]
      Name every value of a call by its slot and flag swapped or misplaced arguments.
)"},
    {"layout", cli::cmd_layout,
     R"(  layout --call C [--json]
      Parameter blocks of MultiHeadAttention, the wrapper from the same call and the wrapper with matched width.
)"},
    {"equivalence", cli::cmd_equivalence,
     R"(  equivalence --call C [--tokens T] [--batch B] [--seed S] [--json]
      Slice the integrated weights into a wrapper per head; compare its output with context.merged.
)"},
    {"tradeoffs", cli::cmd_tradeoffs,
     R"(  tradeoffs --d-out N --tokens T [--batch B] [--d-in N] [--qkv-bias] [--json]
  tradeoffs --num-heads H [--d-out-min N] [--d-out-max N] [--d-in N] [--qkv-bias] [--json]
      Every valid num_heads for a width (cost, score memory), or every valid d_out for a head count.
)"},
    {"kv-cache", cli::cmd_kv_cache,
     R"(  kv-cache --preset NAME [--context T] [--batch B] [--dtype f32|bf16|f16] [--kv-heads G] [--json]
  kv-cache --d-model D --heads H --layers L --context T [--kv-heads G] [--head-dim HD] [--batch B]
      [--dtype f32|bf16|f16] [--json]
  kv-cache --call C [--layers L] [--context T] [--batch B] [--dtype f32|bf16|f16] [--kv-heads G] [--json]
  kv-cache [--presets] [--context T] [--batch B] [--dtype f32|bf16|f16] [--json]
      The KV cache a model keeps while generating: per token layers x 2 (K and V) x key/value heads x head_dim
      x bytes per value, for the whole context (a sliding window caps the tokens kept) in bytes, GB and GiB;
      then the same for every number of key/value heads that divides the query heads, MHA to GQA to MQA, with
      the attention's parameters and multiply-adds per token of one layer. bf16, batch 1 and the config's
      context_length unless given. With --presets or no shape, every published config in one table.
)"},
    {"inspect", cli::cmd_inspect,
     R"(  inspect FILE|FOLDER [--json]
      What a weights file (a module's state_dict or a GPT-2 checkpoint) says: layout, module, d_in, d_out,
      qkv_bias, layers, context_length; and the num_heads that d_out allows (the weights do not store it).
      A whole GPT (wte or tok_emb, or a folder with model.safetensors): its settings, how it would be read
      and the chapter 5 weight transfer as code.
)"},
    {"train", cli::cmd_train,
     R"(  train --task previous-token|induction|associative-recall|the-verdict [--vocab V] [--context T] [--emb D]
      [--layers L] [--heads H[,H...]] [--kv-groups G[,G...]] [--window W] [--seeds N | --seed S] [--steps N]
      [--batch B] [--lr X] [--weight-decay X] [--save FILE] [--dump-run FILE] [--max-memory SIZE]
      [--head-ablation auto|all|none] [--json]
      Train the book's chapter 4 GPTModel on a task, one run per num_heads, num_kv_groups and seed, in parallel on
      the cores: held-out loss and accuracy (mean +- std over seeds), steps to 90% of the best accuracy, ms per
      step, KV cache bytes per token; then every head on the task's held-out sequences: its share on t-1, token 0
      and t, induction score, entropy, a role by the stated rule, and held-out loss and accuracy with that head
      zeroed (heads x (layers + 1) / 2 held-out passes, quadratic in the layers: --head-ablation auto, the
      default, makes it only when that costs no more than the training did or 16 passes, and says so when it
      does not; all always; none never). --kv-groups: keys and values shared by groups of query heads (GroupedQueryAttention); each G divides
      every H; default: as many as the heads (MultiHeadAttention). --window W: every block's attention sees only
      the W latest tokens (GroupedQueryAttention's window_size, 1 to --context). associative-recall: context / 4 key-value
      pairs (keys the vocabulary's first half, values its second), then a query for each key, scored on the value
      that follows it; default vocab 32, context 32: 8 pairs of 16 keys and 16 values, 8 queries. The sweep's
      memory is checked against --max-memory (default: the machine's) and its time estimated from a few measured
      steps before it starts: more than 1000 runs, over an hour, or a --dump-run above 1 GiB is refused; a sweep
      of 2 s or more says its runs, time and progress on stderr.
)"},
    {"pool", cli::cmd_pool,
     R"(  pool FILE... | DIR [--json]
      The class's seeds in one table: several train --json documents of one experiment (every DIR/*.json, by
      name, at most 500 files of 64 MiB), each trained with its own --seed, as train's table over all their
      seeds: held-out loss and accuracy (mean +- sample std), steps to 90% of the best accuracy, seeds per
      variant. Files of another experiment (the first setting that differs is named), a seed handed in twice
      with different results (both files named) and a file that is not a train --json document are refused.
)"},
    {"compare", cli::cmd_compare,
     R"(  compare FILE [--num-heads H] [--json]
  compare FILE... | DIR --summary [--names] [--num-heads H] [--json]
      Your own module, recorded with attention_lab_probe.py, against the book's stages on the same weights
      and input: the first stage where it diverges (values, shape, error or missing), its line, a known bug.
      With --summary, the class's code: every recording given, or every DIR/*.safetensors (by name, at
      most 500), one line each as "recording N" (--names shows the file names), then how many match the
      book and how many first diverge at each stage, in the book's order, by known bug. A file that cannot
      be read is named and counted, not fatal. Without --summary, compare takes one recording.
)"},
    {"handout", cli::cmd_handout,
     R"(  handout --call C [--tokens T] [--batch B] [--seed S] [--stages S[,S...]] [--category NAME]
      (--gift FILE | --html FILE)
      Predict First's questions on the call's stages (every stage, or those given) for a class away from the
      app: --gift writes a quiz in Moodle's GIFT format (one numerical, true/false or multiple-choice question
      per asked axis, layout fact or mask count, with the app's answers and explanations), --html a page to
      print, the answers after a page break.
)"},
};

const char* kNotes = R"NOTES(Calls are Python constructor calls, e.g. "MultiHeadAttention(768, 768, 1024, 0.0, 12)".
--seed S is torch.manual_seed(S) before the module is constructed: the weights are PyTorch's, bit for bit.
With --train, dropout continues that stream; --dropout-seed S2 calls torch.manual_seed(S2) right before the forward.
Exit status: 0 success, 1 refused input, 2 usage.
)NOTES";

std::string commandNames(const char* lastJoin)
{
    std::string out;
    const std::size_t n = std::size(kCommands);
    for (std::size_t i = 0; i < n; ++i)
        out += std::string(i == 0 ? "" : i + 1 == n ? lastJoin : ", ") + kCommands[i].name;
    return out;
}

const Command* findCommand(const char* name)
{
    for (const Command& c : kCommands)
        if (!std::strcmp(c.name, name))
            return &c;
    return nullptr;
}

bool asksForHelp(const char* arg)
{
    return !std::strcmp(arg, "--help") || !std::strcmp(arg, "-h") || !std::strcmp(arg, "help");
}

int fail(const char* command, const std::string& sentence, int code)
{
    std::cerr << "attention-lab-cli " << command << ": " << sentence << "\n";
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    attnlab::choose_blas_kernel(argv); // before anything else: it may run the program again
    if (argc < 2) {                    // one line on stderr, like every other usage error; --help prints the whole text
        std::cerr << "Usage: attention-lab-cli <command> [options], with a command among " << commandNames(" and ")
                  << "; --help says more.\n";
        return 2;
    }
    if (asksForHelp(argv[1])) {
        std::cout << "Usage: attention-lab-cli <command> [options]\n\nCommands:\n";
        for (const Command& c : kCommands)
            std::cout << c.usage;
        std::cout << "\n" << kNotes;
        return 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "attention-lab-cli 0.1.0\nmatrix products: " << attnlab::blas_report().sentence() << "\n";
        return 0;
    }
    const Command* command = findCommand(argv[1]);
    if (!command) {
        std::cerr << "attention-lab-cli: unknown command '" << attnlab::printable(argv[1], 60) << "'; try "
                  << commandNames(" or ") << ".\n";
        return 2;
    }
    const std::vector<std::string> args(argv + 2, argv + argc);
    for (const std::string& arg : args)
        if (arg == "--help" || arg == "-h") {
            std::cout << "Usage:\n" << command->usage << "\n" << kNotes;
            return 0;
        }
    // Nothing escapes: a refusal is the sentence it carries, anything else still ends in one sentence
    // and exit 1 rather than an abort and a core dump.
    try {
        // One engine thread unless `bench --threads` asks for more: a run's time and memory then do not
        // depend on the cores free, and `run` and `run --model` alike leave the other cores to the caller.
        attnlab::set_engine_threads(1);
        return command->run(args);
    } catch (const cli::UsageError& e) {
        return fail(command->name, e.what(), 2);
    } catch (const attnlab::Error& e) {
        return fail(command->name, e.what(), 1);
    } catch (const std::bad_alloc&) {
        return fail(command->name, "out of memory; ask for fewer tokens or a smaller batch.", 1);
    } catch (const std::exception& e) {
        return fail(command->name, std::string("stopped by an unexpected error (") + e.what() + ").", 1);
    } catch (...) {
        return fail(command->name, "stopped by an unexpected error.", 1);
    }
}
