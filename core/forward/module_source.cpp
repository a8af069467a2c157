// The forward methods as the book writes them, cut from the book's classes (book_sources.h), and
// which line produces which stage. Stages are found by the text of their line, so a change to a
// resources/pytorch file moves the highlight with it.
#include "forward/module_source.h"

#include "forward/book_sources.h"
#include "forward/stage_facts.h"

#include <map>
#include <mutex>

namespace attnlab {

namespace {

// The class's `def forward` up to the next method or the end, dedented to the method's level.
std::vector<std::string> forward_of(ModuleKind kind)
{
    std::vector<std::string> out;
    bool inside = false;
    for (const std::string& line : book_source_lines(kind)) {
        if (line.rfind("    def ", 0) == 0) {
            if (inside)
                break;
            inside = line.rfind("    def forward(", 0) == 0;
        }
        if (inside)
            out.push_back(line.size() >= 4 ? line.substr(4) : std::string{});
    }
    while (!out.empty() && out.back().find_first_not_of(' ') == std::string::npos)
        out.pop_back();
    return out;
}

const char* const kWrapperHeadNote = "# each head is a complete CausalAttention:";

std::vector<std::string> build(ModuleKind kind)
{
    if (kind != ModuleKind::MultiHeadAttentionWrapper)
        return forward_of(kind);
    // The wrapper's own forward, then the CausalAttention forward every head runs.
    std::vector<std::string> lines = forward_of(kind);
    lines.push_back("");
    lines.push_back(kWrapperHeadNote);
    const std::vector<std::string> head = forward_of(ModuleKind::CausalAttention);
    lines.insert(lines.end(), head.begin(), head.end());
    return lines;
}

} // namespace

const std::vector<std::string>& module_source(ModuleKind kind)
{
    static std::mutex mutex; // the worker thread and the GUI both ask
    static std::map<ModuleKind, std::vector<std::string>> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(kind);
    if (it == cache.end())
        it = cache.emplace(kind, build(kind)).first;
    return it->second;
}

int source_line(ModuleKind kind, const std::string& stage)
{
    // Wrapper stages are "heads.{h}.<stage>": the per-head line sits in the CausalAttention part.
    std::string local = stage;
    int base = 0;
    if (kind == ModuleKind::MultiHeadAttentionWrapper) {
        if (stage == "output")
            return 1;
        if (stage == "x")
            return 0;
        local = stage_facts(stage).base_name;
        base = static_cast<int>(forward_of(kind).size()) + 2; // the wrapper's forward, a blank line, the note
        kind = ModuleKind::CausalAttention;
    }
    const auto& src = module_source(kind);
    auto find = [&](const std::string& needle) {
        for (std::size_t i = 0; i < src.size(); ++i)
            if (src[i].find(needle) != std::string::npos)
                return base + static_cast<int>(i);
        return -1;
    };
    if (local == "x")
        return find("def forward");
    if (local == "queries")
        return find("queries = ");
    if (local == "keys")
        return find("keys = ");
    if (local == "values")
        return find("values = ");
    if (local == "queries.view" || local == "keys.view" || local == "values.view")
        return find(local.substr(0, local.find('.')) + " = " + local.substr(0, local.find('.')) + ".view");
    if (local == "queries.heads" || local == "keys.heads" || local == "values.heads")
        return find(local.substr(0, local.find('.')) + " = " + local.substr(0, local.find('.')) + ".transpose");
    if (local == "attn_scores")
        return find("attn_scores = ");
    if (local == "attn_scores.masked")
        return find("masked_fill_");
    if (local == "attn_weights")
        return find("torch.softmax");
    if (local == "attn_weights.dropout")
        return find("self.dropout");
    if (local == "context.heads" || local == "context.transposed" || local == "context")
        return find("context_vec = "); // the first one: the product with the weights
    if (local == "context.merged")
        return find(".contiguous()");
    if (local == "output")
        return find("out_proj(");
    return -1;
}

} // namespace attnlab
