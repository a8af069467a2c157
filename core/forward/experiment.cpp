#include "forward/experiment.h"
#include "forward/stage_names.h"
#include "io/finite_check.h"

#include "forward/experiment_check.h"
#include "gpt/gpt_input.h"
#include "tensor/error.h"

#include <cstdio>

namespace attnlab {

std::pair<std::string, std::string> format_bytes_apart(std::uint64_t need, std::uint64_t limit)
{
    for (int decimals = 2; decimals <= 6; ++decimals) {
        std::pair<std::string, std::string> out{format_bytes(need, decimals), format_bytes(limit, decimals)};
        if (out.first != out.second || need == limit)
            return out;
    }
    return {std::to_string(need) + " bytes", std::to_string(limit) + " bytes"};
}

std::string format_bytes(std::uint64_t bytes, int decimals)
{
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        ++u;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s", u == 0 ? 0 : decimals, v, units[u]);
    return buf;
}

Experiment prepare(const ExperimentSpec& spec)
{
    Experiment e;
    e.spec = spec;
    const Config& c = e.spec.config; // SimpleSelfAttention takes its width from a file input below
    SafetensorsFile input_file;
    if (spec.input == InputSource::File) {
        input_file = open_safetensors(spec.input_path); // only x is read
        const Tensor* x = input_file.find(stage::x);
        if (!x)
            throw Error(spec.input_path + " has no tensor 'x' to use as the input.");
        if (x->dim() < 2)
            throw Error("'" + spec.input_path + "' holds x with shape " + shape_to_string(x->shape()) + ", but " +
                        module_class_name(c.kind) + " takes x of shape " +
                        (c.is_batched() ? "(b, num_tokens, d_in)." : "(num_tokens, d_in)."));
        e.spec.batch = c.is_batched() && x->dim() == 3 ? x->size(0) : 1;
        if (c.kind == ModuleKind::SimpleSelfAttention) // no weights: its width is the input's
            e.spec.config.d_in = e.spec.config.d_out = x->size(-1);
        e.spec.num_tokens = x->dim() >= 2 ? x->size(-2) : 0;
    } else if (spec.input == InputSource::Book) {
        e.spec.num_tokens = kBookTokens;
    }
    std::optional<TextInput> text;
    if (spec.input == InputSource::Text) {
        text = text_input(spec);
        e.spec.batch = 1;
        e.spec.num_tokens = static_cast<std::int64_t>(text->ids.size());
    }
    const InputShape shape{e.spec.batch, e.spec.num_tokens};
    MemoryUse use = spec.memory_use;
    use.weights_from_file = use.weights_from_file || (!text && !spec.weights_path.empty());
    if (const auto refusals = experiment_refusals(c, shape, spec.memory_budget, use); !refusals.empty())
        throw Error(refusals.front().message);

    e.generator = TorchGenerator(spec.seed);
    if (text) {
        prepare_text_experiment(e, *text);
    } else if (spec.weights_path.empty()) {
        e.weights = init_weights(c, e.generator);
    } else {
        skip_init_draws(c, e.generator); // constructed, then load_state_dict
        // Opened, not read: the layout below reads only the tensors the call takes.
        const SafetensorsFile file = open_safetensors(spec.weights_path);
        WeightLayout layout = spec.layout;
        if (spec.layout_from_file && !file.meta("layout").empty()) {
            try {
                layout = layout_from_name(file.meta("layout"));
            } catch (const Error& e) {
                throw Error("the __metadata__ of '" + spec.weights_path + "' names its layout: " + e.what());
            }
        }
        e.weights = state_dict_from_file(file, c, layout, spec.layer);
        require_finite("'" + spec.weights_path + "'", e.weights);
    }
    switch (spec.input) {
    case InputSource::Random: e.x = random_input(c, e.spec.batch, e.spec.num_tokens, spec.seed + 1); break;
    case InputSource::Book: e.x = book_input(c, e.spec.batch); break;
    case InputSource::File: e.x = *input_file.find(stage::x); break;
    case InputSource::Text: break; // prepare_text_experiment set it
    }
    return e;
}

Trace run(const Experiment& e, const std::atomic<bool>* cancel)
{
    ForwardOptions options;
    options.cancel = cancel;
    options.training = e.spec.training;
    TorchGenerator gen = dropout_generator(e);
    options.generator = &gen;
    return trace_forward(e.spec.config, e.weights, e.x, options);
}

TorchGenerator dropout_generator(const Experiment& e)
{
    return e.spec.dropout_seed ? TorchGenerator(*e.spec.dropout_seed) : e.generator;
}

void write_dump(const std::string& path, const Trace& trace,
                const std::vector<std::pair<std::string, std::string>>& extra)
{
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& s : trace.stages)
        tensors.emplace_back(s.name, s.tensor);
    std::vector<std::pair<std::string, std::string>> metadata = {{"call", canonical_call(trace.config)},
                                                                 {"format", "attention-lab dump"}};
    metadata.insert(metadata.end(), extra.begin(), extra.end());
    write_safetensors(path, tensors, metadata);
}

} // namespace attnlab
