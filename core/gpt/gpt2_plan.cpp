// Planning a GPT-2 checkpoint's read from its header and config.json: which file, which layout, the
// settings, and every tensor's name and shape checked before one byte of weights is read.
#include "gpt/gpt2_checkpoint.h"

#include "gpt/gpt2_config.h"
#include "gpt/gpt_metadata.h"
#include "io/safetensors.h"
#include "tensor/error.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

namespace attnlab {

namespace fs = std::filesystem;

namespace {

using Use = Gpt2Source::Use;

std::string in_quotes(const std::string& path)
{
    return "'" + path + "'";
}

// The safetensors file a path names: itself, or a folder's model.safetensors.
std::string checkpoint_file(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return path;
    const fs::path file = fs::path(path) / "model.safetensors";
    if (fs::exists(file, ec))
        return file.string();
    const char* other = fs::exists(fs::path(path) / "model.safetensors.index.json", ec) ? "a sharded checkpoint"
                        : fs::exists(fs::path(path) / "pytorch_model.bin", ec)          ? "pytorch_model.bin only"
                                                                                        : "no model.safetensors";
    throw Error(in_quotes(path) + " is a folder with " + other +
                "; give a folder holding model.safetensors (and its config.json) or the path of a .safetensors file.");
}

// The layer indices that names such as "h.3.ln_1.weight" (after the prefix) mention.
std::set<int> block_indices(const SafetensorsFile& file, const std::string& head)
{
    std::set<int> out;
    for (const SafetensorsEntry& e : file.entries) {
        if (!e.name.starts_with(head))
            continue;
        const std::size_t dot = e.name.find('.', head.size());
        const std::string digits = e.name.substr(head.size(), dot == std::string::npos ? 0 : dot - head.size());
        if (!digits.empty() && digits.size() < 6 && digits.find_first_not_of("0123456789") == std::string::npos)
            out.insert(std::stoi(digits));
    }
    return out;
}

void add(Gpt2Plan& p, const std::string& name, Shape shape, Use use, std::vector<std::string> targets)
{
    p.sources.push_back({name, std::move(shape), use, std::move(targets)});
}

void plan_hf(Gpt2Plan& p, bool head)
{
    const GptConfig& s = p.settings;
    const std::int64_t d = s.emb_dim;
    const std::string& x = p.prefix;
    add(p, x + "wte.weight", {s.vocab_size, d}, Use::Copy, {"tok_emb.weight"});
    add(p, x + "wpe.weight", {s.context_length, d}, Use::Copy, {"pos_emb.weight"});
    for (std::int64_t i = 0; i < s.n_layers; ++i) {
        const std::string h = x + "h." + std::to_string(i) + ".", b = "trf_blocks." + std::to_string(i) + ".";
        const std::vector<std::string> qkv = {b + "att.W_query", b + "att.W_key", b + "att.W_value"};
        add(p, h + "ln_1.weight", {d}, Use::Copy, {b + "norm1.scale"});
        add(p, h + "ln_1.bias", {d}, Use::Copy, {b + "norm1.shift"});
        add(p, h + "attn.c_attn.weight", {d, 3 * d}, Use::SplitColumns,
            {qkv[0] + ".weight", qkv[1] + ".weight", qkv[2] + ".weight"});
        add(p, h + "attn.c_attn.bias", {3 * d}, Use::SplitBias, {qkv[0] + ".bias", qkv[1] + ".bias", qkv[2] + ".bias"});
        add(p, h + "attn.c_proj.weight", {d, d}, Use::Transpose, {b + "att.out_proj.weight"});
        add(p, h + "attn.c_proj.bias", {d}, Use::Copy, {b + "att.out_proj.bias"});
        add(p, h + "ln_2.weight", {d}, Use::Copy, {b + "norm2.scale"});
        add(p, h + "ln_2.bias", {d}, Use::Copy, {b + "norm2.shift"});
        add(p, h + "mlp.c_fc.weight", {d, 4 * d}, Use::Transpose, {b + "ff.layers.0.weight"});
        add(p, h + "mlp.c_fc.bias", {4 * d}, Use::Copy, {b + "ff.layers.0.bias"});
        add(p, h + "mlp.c_proj.weight", {4 * d, d}, Use::Transpose, {b + "ff.layers.2.weight"});
        add(p, h + "mlp.c_proj.bias", {d}, Use::Copy, {b + "ff.layers.2.bias"});
    }
    add(p, x + "ln_f.weight", {d}, Use::Copy, {"final_norm.scale"});
    add(p, x + "ln_f.bias", {d}, Use::Copy, {"final_norm.shift"});
    if (head)
        add(p, "lm_head.weight", {s.vocab_size, d}, Use::Copy, {"out_head.weight"});
}

// A GroupedQueryAttention model (`train --kv-groups`, the window's key/value heads): W_key and W_value are as wide
// as its key/value heads, kv_groups x head_dim rows. Read from the first block's W_key; a width that is no whole
// number of heads dividing n_heads is left to the shape check, which names what the layout needs.
void book_kv_groups(Gpt2Plan& p, const SafetensorsFile& f)
{
    GptConfig& s = p.settings;
    const SafetensorsEntry* key = f.entry("trf_blocks.0.att.W_key.weight");
    if (!key || key->shape.size() != 2 || key->shape[0] == s.emb_dim || s.n_heads < 1 || s.emb_dim % s.n_heads != 0)
        return;
    const std::int64_t rows = key->shape[0], hd = s.head_dim();
    if (rows > 0 && rows % hd == 0 && s.n_heads % (rows / hd) == 0)
        s.n_kv_groups = rows / hd;
}

void plan_book(Gpt2Plan& p, bool head)
{
    const GptConfig& s = p.settings;
    const std::int64_t d = s.emb_dim, kv = s.kv_width();
    add(p, "tok_emb.weight", {s.vocab_size, d}, Use::Copy, {"tok_emb.weight"});
    add(p, "pos_emb.weight", {s.context_length, d}, Use::Copy, {"pos_emb.weight"});
    for (std::int64_t i = 0; i < s.n_layers; ++i) {
        const std::string b = "trf_blocks." + std::to_string(i) + ".";
        for (const char* role : {"W_query", "W_key", "W_value"}) {
            const std::int64_t rows = std::string_view(role) == "W_query" ? d : kv;
            add(p, b + "att." + role + ".weight", {rows, d}, Use::Copy, {b + "att." + role + ".weight"});
            if (s.qkv_bias)
                add(p, b + "att." + role + ".bias", {rows}, Use::Copy, {b + "att." + role + ".bias"});
        }
        const std::pair<std::string, Shape> rest[] = {{"att.out_proj.weight", {d, d}},
                                                      {"att.out_proj.bias", {d}},
                                                      {"ff.layers.0.weight", {4 * d, d}},
                                                      {"ff.layers.0.bias", {4 * d}},
                                                      {"ff.layers.2.weight", {d, 4 * d}},
                                                      {"ff.layers.2.bias", {d}},
                                                      {"norm1.scale", {d}},
                                                      {"norm1.shift", {d}},
                                                      {"norm2.scale", {d}},
                                                      {"norm2.shift", {d}}};
        for (const auto& [name, shape] : rest)
            add(p, b + name, shape, Use::Copy, {b + name});
    }
    add(p, "final_norm.scale", {d}, Use::Copy, {"final_norm.scale"});
    add(p, "final_norm.shift", {d}, Use::Copy, {"final_norm.shift"});
    if (head)
        add(p, "out_head.weight", {s.vocab_size, d}, Use::Copy, {"out_head.weight"});
}

// Whether the header names the tensor at all, in any dtype (the reader keeps only the float ones as entries).
bool holds(const SafetensorsFile& f, const std::string& name)
{
    return f.dtypes.count(name) > 0;
}

// A tensor stored as integers or booleans is there but cannot be a weight: said by its dtype, not called missing.
void require_float(const SafetensorsFile& f, const std::string& name)
{
    if (const auto it = f.dtypes.find(name); it != f.dtypes.end() && !f.entry(name))
        throw Error(in_quotes(f.path) + " stores '" + name + "' as " + printable_name(it->second) +
                    ", which is not a float dtype; a GPT's weights are F32, F16, BF16 or F64.");
}

const Shape& shape_of(const SafetensorsFile& f, const std::string& name, const std::string& why)
{
    require_float(f, name);
    const SafetensorsEntry* e = f.entry(name);
    if (!e)
        throw Error(in_quotes(f.path) + " has no tensor '" + name + "', which " + why + ".");
    return e->shape;
}

// n_embd, vocab_size and n_positions from the embeddings, n_layer from the blocks' indices.
void settings_from_tensors(const SafetensorsFile& f, Gpt2Plan& p, const std::string& tok, const std::string& pos,
                           const std::string& blocks)
{
    const std::string why = "every " + gpt2_layout_name(p.layout) + " checkpoint has";
    const Shape &t = shape_of(f, tok, why), &q = shape_of(f, pos, why);
    if (t.size() != 2 || q.size() != 2 || t[1] != q[1] || t[1] < 1)
        throw Error(in_quotes(f.path) + " holds '" + tok + "' " + shape_to_string(t) + " and '" + pos + "' " +
                    shape_to_string(q) + ", but both must be (rows, n_embd) with the same n_embd.");
    // Zero rows would pass every shape check and fail at the first token ("ids 0 to -1"): refused here.
    const auto needs_rows = [&f](const std::string& name, const Shape& shape, const std::string& what) {
        if (shape[0] < 1)
            throw Error(in_quotes(f.path) + " holds '" + name + "' " + shape_to_string(shape) + ", " + what +
                        "; a GPT needs at least one row in each embedding.");
    };
    needs_rows(tok, t, "a vocabulary of no tokens");
    needs_rows(pos, q, "a context of no positions");
    p.settings.vocab_size = t[0];
    p.settings.emb_dim = t[1];
    p.settings.context_length = q[0];
    const std::set<int> found = block_indices(f, blocks);
    p.settings.n_layers = found.empty() ? 0 : *found.rbegin() + 1; // a gap shows as a missing tensor
    if (p.settings.n_layers == 0)
        throw Error(in_quotes(f.path) + " has embeddings but no blocks (no '" + blocks +
                    "0.*' tensors); a GPT needs at "
                    "least one transformer block.");
}

} // namespace

std::string gpt2_layout_name(Gpt2Layout layout)
{
    return layout == Gpt2Layout::HuggingFace ? "gpt2-hf" : "book-ch5";
}

bool is_gpt2_checkpoint(const std::string& path)
{
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return true;
    if (!fs::is_regular_file(path, ec))
        return false;
    try {
        const SafetensorsFile f = open_safetensors(path, {.skip_non_float = true}); // the header alone
        const bool whole = holds(f, "wte.weight") || holds(f, "transformer.wte.weight") || holds(f, "tok_emb.weight");
        return whole && f.meta("format") != "attention-lab-gpt";
    } catch (const Error&) {
        return false; // load_gpt_model says what is wrong with it
    }
}

std::string gpt2_checkpoint_name(const std::string& path)
{
    const fs::path file(path);
    return file.filename() == "model.safetensors" && !file.parent_path().filename().empty()
               ? file.parent_path().filename().string()
               : file.stem().string();
}

Gpt2Plan plan_gpt2_checkpoint(const std::string& path)
{
    Gpt2Plan p;
    p.file = checkpoint_file(path);
    const SafetensorsFile f = open_safetensors(p.file, {.skip_non_float = true}); // the header alone
    p.name = gpt2_checkpoint_name(p.file);
    check_trained_gpt_metadata(f, in_quotes(p.file)); // a model trained here, opened as the book's GPTModel
    p.tokenizer = f.meta("tokenizer");
    bool head = false;
    if (holds(f, "h.0.attn.c_attn.weight") || holds(f, "wte.weight") || holds(f, "transformer.wte.weight") ||
        holds(f, "transformer.h.0.attn.c_attn.weight")) {
        p.layout = Gpt2Layout::HuggingFace;
        p.prefix =
            holds(f, "transformer.wte.weight") || holds(f, "transformer.h.0.attn.c_attn.weight") ? "transformer." : "";
        settings_from_tensors(f, p, p.prefix + "wte.weight", p.prefix + "wpe.weight", p.prefix + "h.");
        p.settings.qkv_bias = true;
        head = holds(f, "lm_head.weight");
    } else if (holds(f, "tok_emb.weight") || holds(f, "trf_blocks.0.att.W_query.weight")) {
        p.layout = Gpt2Layout::Book;
        settings_from_tensors(f, p, "tok_emb.weight", "pos_emb.weight", "trf_blocks.");
        p.settings.qkv_bias = holds(f, "trf_blocks.0.att.W_query.bias");
        head = holds(f, "out_head.weight");
    } else {
        std::string listed;
        for (std::size_t i = 0; i < f.entries.size() && i < 4; ++i)
            listed += (i ? ", " : "") + printable_name(f.entries[i].name);
        throw Error(in_quotes(p.file) + " holds " + (listed.empty() ? std::string("no float tensors") : listed) +
                    ", which is neither a Hugging Face GPT-2 checkpoint (wte.weight, h.0.attn.c_attn.weight, ...) "
                    "nor the book's GPTModel (tok_emb.weight, trf_blocks.0.att.W_query.weight, ...).");
    }
    p.tied_head = !head;
    apply_gpt2_config(p, f); // config.json beside the file, else the metadata, else GPT-2's head size
    if (p.layout == Gpt2Layout::HuggingFace) {
        plan_hf(p, head);
    } else {
        book_kv_groups(p, f);
        plan_book(p, head);
    }
    std::set<std::string> dtypes, used;
    for (const Gpt2Source& s : p.sources) {
        require_float(f, s.name);
        const SafetensorsEntry* e = f.entry(s.name);
        const std::string needs = "the " + gpt2_layout_name(p.layout) +
                                  " layout with n_embd=" + std::to_string(p.settings.emb_dim) + " and " +
                                  std::to_string(p.settings.n_layers) + " layers needs";
        if (!e)
            throw Error(in_quotes(p.file) + " has no tensor '" + s.name + "', which " + needs + ".");
        if (e->shape != s.shape)
            throw Error(in_quotes(p.file) + " holds '" + s.name + "' with shape " + shape_to_string(e->shape) +
                        ", but " + needs + " " + shape_to_string(s.shape) + ".");
        const std::uint64_t values = static_cast<std::uint64_t>(shape_numel(s.shape));
        dtypes.insert(e->dtype);
        used.insert(s.name);
        p.stored_bytes += e->end - e->begin;
        p.weight_bytes += 4 * values;
        if (s.use != Use::Copy) // a copied tensor is kept as read; the others are converted into new ones
            p.largest_source = std::max<std::uint64_t>(p.largest_source, 4 * values);
    }
    p.dtypes.assign(dtypes.begin(), dtypes.end());
    for (const SafetensorsEntry& e : f.entries)
        p.ignored += used.count(e.name) ? 0 : 1;
    return p;
}

} // namespace attnlab
