// attention-lab-cli inspect FILE: what a weights file says about its module (core/io/weights_inspect.h),
// and the one thing it cannot say, num_heads, with the head counts d_out allows.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "tensor/error.h"
#include "io/weights_inspect.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace cli {

using namespace attnlab;

int cmd_inspect(const std::vector<std::string>& argv)
{
    if (argv.empty() || argv.front().starts_with("--"))
        throw UsageError("inspect needs the weights file first: attention-lab-cli inspect FILE [--json].");
    const Args a({argv.begin() + 1, argv.end()}, {}, {"json"});
    if (is_whole_gpt_checkpoint(argv.front())) // a whole GPT, not one module's state_dict
        return inspect_gpt2_checkpoint(argv.front(), a.flag("json"));
    const WeightsInfo info = inspect_weights(open_safetensors(argv.front())); // the header alone
    // The wrapper keeps one module per head, so only its head count is in the file.
    const bool ask_heads = info.num_heads == 0 && info.kinds.front() == ModuleKind::MultiHeadAttention;
    const std::vector<std::int64_t> heads = ask_heads ? divisors(info.d_out) : std::vector<std::int64_t>{};
    if (a.flag("json")) {
        nlohmann::ordered_json out = {{"file", argv.front()}, {"layout", layout_name(info.layout)}};
        out["modules"] = nlohmann::ordered_json::array();
        for (ModuleKind kind : info.kinds)
            out["modules"].push_back(module_class_name(kind));
        out["d_in"] = info.d_in;
        out["d_out"] = info.d_out;
        out["qkv_bias"] = info.qkv_bias;
        out["layers"] = info.layers;
        out["context_length"] = info.context_length > 0 ? nlohmann::ordered_json(info.context_length) : nullptr;
        out["num_heads"] = info.num_heads > 0 ? nlohmann::ordered_json(info.num_heads) : nullptr;
        out["num_heads_choices"] = heads;
        std::cout << cli::json_text(out) << "\n";
        return 0;
    }
    std::cout << argv.front() << ": " << describe_weights(info) << "\n";
    if (!ask_heads)
        return 0;
    std::cout << "num_heads is not stored in the weights: splitting d_out into heads is a reshape, it has no "
                 "parameters. Any divisor of d_out="
              << info.d_out << " works:\n";
    for (std::int64_t h : heads)
        std::cout << "  num_heads=" << h << "  head_dim=" << info.d_out / h
                  << (h == suggested_num_heads(info.d_out, 0) ? "  (suggested)" : "") << "\n";
    return 0;
}

} // namespace cli
