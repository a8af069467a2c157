// What a GPT-2 checkpoint is, in one line, and the chapter 5 weight transfer as the code it amounts to.
#include "gpt/gpt2_checkpoint.h"

#include "forward/experiment.h"

#include <cstdio>

namespace attnlab {

std::string describe_gpt2_plan(const Gpt2Plan& p)
{
    const GptConfig& s = p.settings;
    char eps[32];
    std::snprintf(eps, sizeof eps, "%g", p.layer_norm_eps);
    std::string dtypes;
    for (const std::string& t : p.dtypes)
        dtypes += (dtypes.empty() ? "" : "+") + t;
    const std::string origin = p.layout == Gpt2Layout::Book ? " (the book's GPTModel)"
                               : p.prefix.empty()           ? " (Hugging Face)"
                                                            : " (Hugging Face, names under transformer.)";
    return gpt2_layout_name(p.layout) + origin + ", " + std::to_string(s.n_layers) + " layers, " +
           std::to_string(s.n_heads) + " heads (" + p.heads_from + "), n_embd=" + std::to_string(s.emb_dim) +
           ", n_positions=" + std::to_string(s.context_length) + ", vocab " + std::to_string(s.vocab_size) + ", eps " +
           eps + ", " + dtypes + ", " + (p.tied_head ? "head tied to the token embedding" : "its own output head") +
           ", " + format_bytes(p.weight_bytes) + " as F32";
}

std::vector<std::string> gpt2_mapping_code(const Gpt2Plan& p)
{
    const std::string n = std::to_string(p.settings.n_layers);
    if (p.layout == Gpt2Layout::Book)
        return {"# the file holds GPTModel's own state_dict names and layouts: nothing to transfer",
                "gpt = GPTModel(cfg)",
                "gpt.load_state_dict(sd, strict=False)  # the causal masks are buffers the constructor rebuilds",
                std::string(p.tied_head ? "gpt.out_head.weight = gpt.tok_emb.weight  # no out_head stored: tied"
                                        : "# out_head.weight is stored: the head is its own")};
    const std::string x = p.prefix;
    std::vector<std::string> code = {
        "# chapter 5's load_weights_into_gpt for the Hugging Face names; Conv1D stores (in, out), nn.Linear (out, in)",
        "gpt.pos_emb.weight = assign(gpt.pos_emb.weight, sd[\"" + x + "wpe.weight\"])",
        "gpt.tok_emb.weight = assign(gpt.tok_emb.weight, sd[\"" + x + "wte.weight\"])",
        "for b in range(" + n + "):",
        "    h = f\"" + x + "h.{b}.\"",
        "    q_w, k_w, v_w = torch.chunk(sd[h + \"attn.c_attn.weight\"], 3, dim=-1)",
        "    gpt.trf_blocks[b].att.W_query.weight = assign(gpt.trf_blocks[b].att.W_query.weight, q_w.T)",
        "    gpt.trf_blocks[b].att.W_key.weight = assign(gpt.trf_blocks[b].att.W_key.weight, k_w.T)",
        "    gpt.trf_blocks[b].att.W_value.weight = assign(gpt.trf_blocks[b].att.W_value.weight, v_w.T)",
        "    q_b, k_b, v_b = torch.chunk(sd[h + \"attn.c_attn.bias\"], 3, dim=-1)",
        "    gpt.trf_blocks[b].att.W_query.bias = assign(gpt.trf_blocks[b].att.W_query.bias, q_b)",
        "    gpt.trf_blocks[b].att.W_key.bias = assign(gpt.trf_blocks[b].att.W_key.bias, k_b)",
        "    gpt.trf_blocks[b].att.W_value.bias = assign(gpt.trf_blocks[b].att.W_value.bias, v_b)",
        "    gpt.trf_blocks[b].att.out_proj.weight = assign(gpt.trf_blocks[b].att.out_proj.weight, "
        "sd[h + \"attn.c_proj.weight\"].T)",
        "    gpt.trf_blocks[b].att.out_proj.bias = assign(gpt.trf_blocks[b].att.out_proj.bias, sd[h + "
        "\"attn.c_proj.bias\"])",
        "    gpt.trf_blocks[b].ff.layers[0].weight = assign(gpt.trf_blocks[b].ff.layers[0].weight, "
        "sd[h + \"mlp.c_fc.weight\"].T)",
        "    gpt.trf_blocks[b].ff.layers[0].bias = assign(gpt.trf_blocks[b].ff.layers[0].bias, sd[h + "
        "\"mlp.c_fc.bias\"])",
        "    gpt.trf_blocks[b].ff.layers[2].weight = assign(gpt.trf_blocks[b].ff.layers[2].weight, "
        "sd[h + \"mlp.c_proj.weight\"].T)",
        "    gpt.trf_blocks[b].ff.layers[2].bias = assign(gpt.trf_blocks[b].ff.layers[2].bias, sd[h + "
        "\"mlp.c_proj.bias\"])",
        "    gpt.trf_blocks[b].norm1.scale = assign(gpt.trf_blocks[b].norm1.scale, sd[h + \"ln_1.weight\"])",
        "    gpt.trf_blocks[b].norm1.shift = assign(gpt.trf_blocks[b].norm1.shift, sd[h + \"ln_1.bias\"])",
        "    gpt.trf_blocks[b].norm2.scale = assign(gpt.trf_blocks[b].norm2.scale, sd[h + \"ln_2.weight\"])",
        "    gpt.trf_blocks[b].norm2.shift = assign(gpt.trf_blocks[b].norm2.shift, sd[h + \"ln_2.bias\"])",
        "gpt.final_norm.scale = assign(gpt.final_norm.scale, sd[\"" + x + "ln_f.weight\"])",
        "gpt.final_norm.shift = assign(gpt.final_norm.shift, sd[\"" + x + "ln_f.bias\"])",
        p.tied_head ? "gpt.out_head.weight = assign(gpt.out_head.weight, sd[\"" + x + "wte.weight\"])  # tied to wte"
                    : std::string("gpt.out_head.weight = assign(gpt.out_head.weight, sd[\"lm_head.weight\"])"),
    };
    return code;
}

} // namespace attnlab
