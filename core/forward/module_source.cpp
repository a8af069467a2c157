// The forward methods as the book writes them, cut from the book's classes (book_sources.h), and
// which line produces which stage. Stages are found by the text of their line (the stage table's
// source_text), so a change to a resources/pytorch file moves the highlight with it.
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
    const StageFacts facts = stage_facts(stage);
    if (!facts.row)
        return -1;
    int base = 0;
    if (kind == ModuleKind::MultiHeadAttentionWrapper && facts.head >= 0) {
        base = static_cast<int>(forward_of(kind).size()) + 2; // the wrapper's forward, a blank line, the note
        kind = ModuleKind::CausalAttention;
    }
    const auto& src = module_source(kind);
    for (std::string_view needle : facts.row->source_text)
        for (std::size_t i = 0; i < src.size(); ++i)
            if (src[i].find(needle) != std::string::npos)
                return base + static_cast<int>(i);
    return -1;
}

} // namespace attnlab
