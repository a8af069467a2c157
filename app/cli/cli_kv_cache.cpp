// `kv-cache`: the bytes a model's KV cache holds at generation time and how the number of key/value
// heads changes them. The shape comes from a published config (--preset), from its sizes (--d-model,
// --heads, --layers) or from one of the book's constructor calls (--call); with none, every published
// config is listed. Numbers come from core/designs/kv_cache.h.
#include "cli/cli_commands.h"
#include "cli/cli_kv_cache.h"

#include "call/call_parser.h"
#include "designs/kv_cache_call.h"
#include "designs/published_configs.h"
#include "tensor/error.h"
#include "text/utf8.h"

namespace cli {

namespace {

using namespace attnlab;

// Widths, head counts and layers: far beyond any model, small enough that their products are counted.
constexpr std::int64_t kMaxSize = std::int64_t{1} << 20;

KvDtype dtype_of(const Args& a)
{
    const std::string name = a.text("dtype", "bf16");
    if (const std::optional<KvDtype> d = dtype_from_name(name))
        return *d;
    throw Error(std::string("--dtype '") + printable(name, 40) +
                "' is not a type the cache is counted in; give f32 (4 bytes), bf16 or f16 (2 bytes).");
}

// Options that belong to another way of giving the shape are usage errors, said with the way they go with.
void refuse_options(const Args& a, std::initializer_list<const char*> names, const char* mode)
{
    for (const char* name : names)
        if (a.has(name))
            throw UsageError(std::string("--") + name + " does not go with " + mode + "; see kv-cache --help.");
}

AttentionShape from_preset(const Args& a)
{
    refuse_options(a, {"d-model", "heads", "layers", "head-dim", "call"}, "--preset (the config gives them)");
    const std::string name = a.text("preset");
    const AttentionShape* s = find_published_config(name);
    if (!s)
        throw Error(std::string("--preset '") + printable(name, 40) + "' is not a published config here; give one of " +
                    published_config_names() + ".");
    return *s;
}

AttentionShape from_call(const Args& a)
{
    refuse_options(a, {"d-model", "heads", "head-dim"}, "--call (the call gives them)");
    const std::string text = a.text("call");
    const ParsedCall parsed = parse_call(text);
    if (!parsed.ok())
        throw Error(parsed.error ? parsed.error->with_caret(text) : "the call could not be read.");
    return attention_shape_of(*parsed.config, a.integer("layers", 1, 1, kMaxSize));
}

AttentionShape from_sizes(const Args& a)
{
    for (const char* name : {"heads", "layers", "context"})
        if (!a.has(name))
            throw UsageError(std::string("kv-cache --d-model needs --") + name + "; see kv-cache --help.");
    AttentionShape s;
    s.d_model = a.integer("d-model", 0, 1, kMaxSize);
    s.num_heads = a.integer("heads", 0, 1, kMaxSize);
    s.layers = a.integer("layers", 0, 1, kMaxSize);
    s.num_kv_heads = s.num_heads;
    if (a.has("head-dim"))
        s.head_dim = a.integer("head-dim", 0, 1, kMaxSize);
    else if (s.d_model % s.num_heads != 0)
        throw Error(std::string("--d-model ") + std::to_string(s.d_model) + " does not split into " +
                    std::to_string(s.num_heads) + " heads; give --head-dim, or a d_model that is a multiple of " +
                    std::to_string(s.num_heads) + ".");
    else
        s.head_dim = s.d_model / s.num_heads;
    s.context_length = a.integer("context", 0, 1, kMaxKvTokens);
    s.name = "d_model " + std::to_string(s.d_model) + ", " + std::to_string(s.num_heads) + " heads";
    s.source = "the sizes given";
    return s;
}

// --kv-heads replaces the shape's own count; it must split the query heads into whole groups.
void apply_kv_heads(const Args& a, AttentionShape& s)
{
    if (!a.has("kv-heads"))
        return;
    const std::int64_t g = a.integer("kv-heads", 0, 1, kMaxSize);
    if (s.num_heads % g != 0) {
        const std::pair<std::int64_t, std::int64_t> near = nearest_kv_heads(s.num_heads, g);
        throw Error(std::string("--kv-heads ") + std::to_string(g) + " does not divide the " +
                    std::to_string(s.num_heads) +
                    " query heads (each key/value head serves a whole group of them); the nearest that do are " +
                    std::to_string(near.first) + " and " + std::to_string(near.second) + ".");
    }
    s = with_kv_heads(s, g);
}

} // namespace

int cmd_kv_cache(const std::vector<std::string>& argv)
{
    Args a(argv, {"preset", "d-model", "heads", "layers", "kv-heads", "head-dim", "context", "batch", "dtype", "call"},
           {"json", "presets"});
    const int ways = int(a.has("preset")) + int(a.has("d-model")) + int(a.has("call"));
    if (ways > 1)
        throw UsageError("give one of --preset, --d-model or --call.");
    if (ways == 0 || a.flag("presets")) {
        if (ways > 0)
            throw UsageError("--presets lists every published config; give it without --preset, --d-model or --call.");
        refuse_options(a, {"heads", "layers", "kv-heads", "head-dim"}, "--presets (each config gives them)");
        print_kv_presets(dtype_of(a), a.integer("batch", 1, 1, kMaxSize), a.integer("context", 0, 1, kMaxKvTokens),
                         a.flag("json"));
        return 0;
    }
    KvRequest r;
    r.origin = a.has("preset") ? "preset" : a.has("call") ? "call" : "shape";
    r.shape = a.has("preset") ? from_preset(a) : a.has("call") ? from_call(a) : from_sizes(a);
    r.config_kv_heads = r.shape.num_kv_heads;
    apply_kv_heads(a, r.shape);
    r.dtype = dtype_of(a);
    r.batch = a.integer("batch", 1, 1, kMaxSize);
    r.tokens = a.integer("context", r.shape.context_length, 1, kMaxKvTokens);
    print_kv_cache(r, a.flag("json"));
    return 0;
}

} // namespace cli
