#include "train/run_files.h"

#include "gpt/gpt_text.h"
#include "io/atomic_file.h"
#include "io/safetensors.h"
#include "tensor/error.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <cstring>
#include <sstream>
#include <string_view>

namespace attnlab::train {

namespace {

std::string number(double v)
{
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
}

// One tensor of the dump: its dtype, shape and little-endian bytes, read where the run keeps them (a copy of
// the recorded batches would double the dump's memory at its peak).
struct Blob {
    std::string name, dtype;
    std::vector<std::int64_t> shape;
    std::string_view bytes;
};

template <typename T> std::string_view little_endian(const T* values, std::size_t n)
{
    static_assert(std::endian::native == std::endian::little, "the dump writer assumes a little-endian machine");
    return std::string_view(reinterpret_cast<const char*>(values), n * sizeof(T));
}

void write_blobs(const std::string& path, const std::vector<Blob>& blobs, const Metadata& metadata)
{
    nlohmann::ordered_json header;
    nlohmann::ordered_json meta = nlohmann::ordered_json::object();
    for (const auto& [k, v] : metadata)
        meta[k] = v;
    header["__metadata__"] = meta;
    std::uint64_t offset = 0;
    for (const Blob& b : blobs) {
        header[b.name] = {{"dtype", b.dtype}, {"shape", b.shape}, {"data_offsets", {offset, offset + b.bytes.size()}}};
        offset += b.bytes.size();
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    AtomicFile out(path);
    unsigned char prefix[8];
    for (int i = 0; i < 8; ++i)
        prefix[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(text.size()) >> (8 * i));
    out.write(prefix, 8);
    out.write(text);
    for (const Blob& b : blobs)
        out.write(b.bytes.data(), b.bytes.size());
    out.commit();
}

} // namespace

Metadata run_metadata(const RunSettings& s)
{
    Metadata meta{{"task", s.task},
                  {"vocab_size", std::to_string(s.shape.vocab_size)},
                  {"emb_dim", std::to_string(s.shape.emb_dim)},
                  {"n_layers", std::to_string(s.shape.n_layers)},
                  {"n_heads", std::to_string(s.shape.n_heads)},
                  {"context_length", std::to_string(s.shape.context_length)},
                  {"drop_rate", number(s.shape.drop_rate)},
                  {"qkv_bias", s.shape.qkv_bias ? "true" : "false"},
                  {"seed", std::to_string(s.seed)},
                  {"training_steps", std::to_string(s.steps)},
                  {"batch", std::to_string(s.batch)},
                  {"lr", number(s.optimizer.lr)},
                  {"weight_decay", number(s.optimizer.weight_decay)},
                  {"betas", number(s.optimizer.beta1) + "," + number(s.optimizer.beta2)},
                  {"eps", number(s.optimizer.eps)},
                  {"optimizer", "AdamW, weight_decay " + number(s.optimizer.weight_decay) + ", constant lr"}};
    // Only a grouped model names it: a MultiHeadAttention model's file stays as it was, byte for byte.
    if (s.shape.grouped())
        meta.insert(meta.begin() + 5, {"n_kv_groups", std::to_string(s.shape.kv_groups())});
    if (s.shape.window > 0) // likewise only a model trained with a window
        meta.insert(meta.begin() + (s.shape.grouped() ? 6 : 5), {"window_size", std::to_string(s.shape.window)});
    return meta;
}

namespace {

// The model's tensors under the book's state_dict names and its metadata, as save_trained_model writes them.
struct ModelFile {
    std::vector<std::pair<std::string, Tensor>> tensors;
    Metadata meta;
};

ModelFile model_file(const RunResult& run, const Metadata& results)
{
    ModelFile out;
    const GptLayout layout = gpt_layout(run.settings.shape);
    for (const ParamEntry& e : layout.entries)
        out.tensors.emplace_back(
            e.name, Tensor::from_values(e.shape, std::vector<float>(run.params.begin() + e.offset,
                                                                    run.params.begin() + e.offset + e.size)));
    out.meta = {{"format", "attention-lab-gpt"},
                {"dtype", "F32"},
                {"trainer", "attention-lab-cli train (core/train)"},
                // what gpt/gpt_text.h reads back to pick the model's tokenizer
                {"tokenizer",
                 text_reader_name(run.settings.task == "the-verdict" ? TextReader::BookWords : TextReader::Letters)}};
    for (const auto& kv : run_metadata(run.settings))
        out.meta.push_back(kv);
    out.meta.insert(out.meta.end(), results.begin(), results.end());
    return out;
}

} // namespace

void save_trained_model(const std::string& path, const RunResult& run, const Metadata& results)
{
    check_write_target(path);
    const ModelFile file = model_file(run, results);
    write_safetensors(path, file.tensors, file.meta);
}

std::string trained_model_bytes(const RunResult& run, const Metadata& results, const std::string& name)
{
    const ModelFile file = model_file(run, results);
    return safetensors_bytes(file.tensors, file.meta, name);
}

void write_run_dump(const std::string& path, const RunResult& run)
{
    check_write_target(path);
    const GptLayout layout = gpt_layout(run.settings.shape);
    std::vector<Blob> blobs;
    for (const ParamEntry& e : layout.entries)
        blobs.push_back({"init." + e.name, "F32", e.shape, little_endian(run.init_params.data() + e.offset, e.size)});
    const std::int64_t steps = static_cast<std::int64_t>(run.train_loss.size());
    const std::vector<std::int64_t> shape{steps, run.settings.batch, run.settings.shape.context_length};
    blobs.push_back({"inputs", "I64", shape, little_endian(run.inputs.data(), run.inputs.size())});
    blobs.push_back({"targets", "I64", shape, little_endian(run.targets.data(), run.targets.size())});
    std::vector<float> loss(run.train_loss.begin(), run.train_loss.end());
    blobs.push_back({"loss", "F32", {steps}, little_endian(loss.data(), loss.size())});
    write_blobs(path, blobs, run_metadata(run.settings));
}

} // namespace attnlab::train
