#include "render/stage_captions.h"

#include <cmath>

namespace attnlab::ui {

namespace {

QString role(const QString& base)
{
    return base.section('.', 0, 0); // "queries", "keys", "values"
}

} // namespace

QString stageFormula(const Stage& stage, const Config& c)
{
    const QString base = QString::fromStdString(stage.base_name);
    const QString split =
        QStringLiteral("d_out = %1 = %2 heads × %3 (head_dim)").arg(c.d_out).arg(c.num_heads).arg(c.head_dim());
    if (c.kind != ModuleKind::MultiHeadAttention)
        return {};
    if (base.endsWith(QLatin1String(".view")) || base == QLatin1String("context.merged"))
        return split;
    if (base == QLatin1String("attn_weights"))
        return QStringLiteral("scale = 1 / √head_dim = 1 / √%1 = 1 / %2")
            .arg(c.head_dim())
            .arg(std::sqrt(double(c.head_dim())), 0, 'g', 4);
    return {};
}

QString stageCaption(const Stage& stage, const Config& c)
{
    const QString base = QString::fromStdString(stage.base_name);
    const bool mha = c.kind == ModuleKind::MultiHeadAttention;
    const QString hd = QString::number(c.head_dim()), heads = QString::number(c.num_heads);
    const QString dout = QString::number(c.d_out), din = QString::number(c.d_in);
    if (base == QLatin1String("x"))
        return QStringLiteral("The input: every token is a vector of d_in = %1 numbers (its embedding).").arg(din);
    if (base == QLatin1String("queries") || base == QLatin1String("keys") || base == QLatin1String("values")) {
        const QString w = QStringLiteral("W_") + (base == QLatin1String("queries") ? "query"
                                                  : base == QLatin1String("keys")  ? "key"
                                                                                   : "value");
        if (mha)
            return QStringLiteral("%1 maps each token from d_in = %2 to d_out = %3 features. One wide projection "
                                  "serves all %4 heads; they are split apart next.")
                .arg(w, din, dout, heads);
        return QStringLiteral("%1 maps each token from d_in = %2 to d_out = %3 features.").arg(w, din, dout);
    }
    if (base.endsWith(QLatin1String(".view")))
        return QStringLiteral("view() cuts the d_out axis of %1 into %2 heads of head_dim = %3 consecutive features: "
                              "%4 / %2 = %3. Same storage, nothing is copied.")
            .arg(role(base), heads, hd, dout);
    if (base.endsWith(QLatin1String(".heads")))
        return QStringLiteral("transpose(1, 2) swaps axes 1 and 2, putting num_heads before num_tokens, so each head "
                              "holds its own num_tokens × head_dim matrix. Only the strides change.");
    if (c.kind == ModuleKind::SimpleSelfAttention) { // section 3.3: the tokens themselves, nothing trained
        if (base == QLatin1String("attn_scores"))
            return QStringLiteral("x @ x.T: the dot product of every token with every token, a num_tokens × "
                                  "num_tokens matrix of scores; no weights, no scaling.");
        if (base == QLatin1String("attn_weights"))
            return QStringLiteral("softmax(attn_scores) along each row (not scaled) turns scores into weights "
                                  "that sum to 1.");
        if (base == QLatin1String("context"))
            return QStringLiteral("attn_weights @ x: each token's context vector is a weighted mix of all the "
                                  "input vectors.");
    }
    if (base == QLatin1String("attn_scores"))
        return mha ? QStringLiteral(
                         "queries @ keys.transpose(2, 3): in every head, each query is compared with every "
                         "key using its %1 features, giving one num_tokens × num_tokens score matrix per head.")
                         .arg(hd)
                   : QStringLiteral("queries @ keys.T: each query is compared with every key, giving a num_tokens × "
                                    "num_tokens matrix of scores.");
    if (base == QLatin1String("attn_scores.masked"))
        return QStringLiteral("The causal mask sets every score above the diagonal to −∞: a token may look at itself "
                              "and earlier tokens, never at later ones.");
    if (base == QLatin1String("attn_weights"))
        return QStringLiteral("softmax(scores / √%1) along each row turns scores into weights that sum to 1%2.")
            .arg(c.head_dim())
            .arg(c.is_causal() ? QStringLiteral("; the −∞ cells become exactly 0") : QString());
    if (base == QLatin1String("attn_weights.dropout"))
        return QStringLiteral("In training, dropout zeroes each weight with probability %1 and scales the rest by "
                              "1 / (1 − %1).")
            .arg(c.dropout);
    if (base == QLatin1String("context.heads"))
        return QStringLiteral("attn_weights @ values: each head mixes the value vectors of the tokens it attends to, "
                              "giving num_tokens × head_dim = %1 features per token and head.")
            .arg(hd);
    if (base == QLatin1String("context.transposed"))
        return QStringLiteral("transpose(1, 2) moves the heads back behind the tokens. The strides are now out of "
                              "order, so this tensor is not contiguous and view() cannot merge it yet.");
    if (base == QLatin1String("context.merged"))
        return QStringLiteral("contiguous() copies the values into row order; then view() glues the %1 heads × %2 "
                              "features back into d_out = %3.")
            .arg(heads, hd, dout);
    if (base == QLatin1String("context"))
        return QStringLiteral(
            "attn_weights @ values: each token's context vector is a weighted mix of all value vectors it may see.");
    if (base == QLatin1String("output") && c.kind == ModuleKind::MultiHeadAttentionWrapper)
        return QStringLiteral("torch.cat joins the %1 heads' contexts side by side: num_heads × d_out = %1 × %2 = %3 "
                              "features per token.")
            .arg(heads, dout)
            .arg(c.num_heads * c.d_out);
    if (base == QLatin1String("output"))
        return QStringLiteral("out_proj, a %1 × %1 linear layer, mixes the heads' features into the output.").arg(dout);
    return {};
}

} // namespace attnlab::ui
