// The forward methods as the book writes them, and which line produces which stage. The stepper
// highlights these lines, so stage -> line must stay in step with the source text below.
#include "forward/module_source.h"

#include "forward/stage_facts.h"

namespace attnlab {

namespace {

const std::vector<std::string> kMultiHead = {
    "def forward(self, x):",
    "    b, num_tokens, d_in = x.shape",
    "    queries = self.W_query(x)",
    "    keys = self.W_key(x)",
    "    values = self.W_value(x)",
    "",
    "    queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)",
    "    keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)",
    "    values = values.view(b, num_tokens, self.num_heads, self.head_dim)",
    "",
    "    queries = queries.transpose(1, 2)",
    "    keys = keys.transpose(1, 2)",
    "    values = values.transpose(1, 2)",
    "",
    "    attn_scores = queries @ keys.transpose(2, 3)",
    "    mask_bool = self.mask.bool()[:num_tokens, :num_tokens]",
    "    attn_scores.masked_fill_(mask_bool, -torch.inf)",
    "",
    "    attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)",
    "    attn_weights = self.dropout(attn_weights)",
    "",
    "    context_vec = (attn_weights @ values).transpose(1, 2)",
    "",
    "    context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)",
    "    context_vec = self.out_proj(context_vec)",
    "    return context_vec",
};

const std::vector<std::string> kCausal = {
    "def forward(self, x):",
    "    b, num_tokens, d_in = x.shape",
    "    queries = self.W_query(x)",
    "    keys = self.W_key(x)",
    "    values = self.W_value(x)",
    "",
    "    attn_scores = queries @ keys.transpose(1, 2)",
    "    attn_scores.masked_fill_(",
    "        self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)",
    "    attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)",
    "    attn_weights = self.dropout(attn_weights)",
    "",
    "    context_vec = attn_weights @ values",
    "    return context_vec",
};

// The wrapper's own forward, then the CausalAttention forward every head runs.
const std::vector<std::string> kWrapper = [] {
    std::vector<std::string> lines = {
        "def forward(self, x):",
        "    return torch.cat([head(x) for head in self.heads], dim=-1)",
        "",
        "# each head is a complete CausalAttention:",
    };
    lines.insert(lines.end(), kCausal.begin(), kCausal.end());
    return lines;
}();

const std::vector<std::string> kSelfV1 = {
    "def forward(self, x):",
    "    queries = x @ self.W_query",
    "    keys = x @ self.W_key",
    "    values = x @ self.W_value",
    "    attn_scores = queries @ keys.T  # omega",
    "    attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)",
    "    context_vec = attn_weights @ values",
    "    return context_vec",
};

const std::vector<std::string> kSelfV2 = {
    "def forward(self, x):",
    "    queries = self.W_query(x)",
    "    keys = self.W_key(x)",
    "    values = self.W_value(x)",
    "    attn_scores = queries @ keys.T",
    "    attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)",
    "    context_vec = attn_weights @ values",
    "    return context_vec",
};

} // namespace

const std::vector<std::string>& module_source(ModuleKind kind)
{
    switch (kind) {
    case ModuleKind::SelfAttentionV1: return kSelfV1;
    case ModuleKind::SelfAttentionV2: return kSelfV2;
    case ModuleKind::CausalAttention: return kCausal;
    case ModuleKind::MultiHeadAttentionWrapper: return kWrapper;
    case ModuleKind::MultiHeadAttention: break;
    }
    return kMultiHead;
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
        base = 4;
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
        return find("attn_weights @ values");
    if (local == "context.merged")
        return find(".contiguous()");
    if (local == "output")
        return find("out_proj(");
    return -1;
}

} // namespace attnlab
