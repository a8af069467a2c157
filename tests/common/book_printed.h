#pragma once
// Tensors chapter 3 of the book prints, row by row, with the call, seed and input that print them
// and the preset that shows them. The CLI test runs each through attention-lab-cli, the preset test
// through the app's presets; both compare to the four decimals the book prints. The values were
// checked against Debian's python3-torch with the modules in resources/pytorch.
#include <QString>
#include <QStringList>
#include <vector>

struct BookPrinted {
    const char* name;   // where the book prints it
    const char* preset; // the preset that shows it ("" when none does)
    const char* call;
    int seed;
    int batch;        // 0: the 2-D (6, 3) input of the single-head modules
    int dropout_seed; // -1: eval mode; else training, torch.manual_seed(dropout_seed) before the forward
    const char* stage;
    int row; // token index within batch element 0
    std::vector<double> values;
};

inline const std::vector<BookPrinted>& book_printed()
{
    // One printed row per entry reads best as the table it is.
    // clang-format off
    static const std::vector<BookPrinted> rows = {
        {"3.3.1 attn_scores_2", "book-3.3", "SimpleSelfAttention()", 123, 0, -1, "attn_scores", 1,
         {0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865}},
        {"3.3.1 attn_weights_2", "book-3.3", "SimpleSelfAttention()", 123, 0, -1, "attn_weights", 1,
         {0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581}},
        {"3.3.1 context_vec_2", "book-3.3", "SimpleSelfAttention()", 123, 0, -1, "context", 1, {0.4419, 0.6515, 0.5683}},
        {"3.3.2 attn_scores Your", "book-3.3", "SimpleSelfAttention()", 123, 0, -1, "attn_scores", 0,
         {0.9995, 0.9544, 0.9422, 0.4753, 0.4576, 0.6310}},
        {"3.3.2 attn_weights step", "book-3.3", "SimpleSelfAttention()", 123, 0, -1, "attn_weights", 5,
         {0.1385, 0.2184, 0.2128, 0.1420, 0.0988, 0.1896}},
        {"3.3.2 all_context_vecs step", "book-3.3", "SimpleSelfAttention()", 123, 0, -1, "context", 5,
         {0.4177, 0.6503, 0.5645}},
        {"3.4.1 query_2", "book-3.4-v1", "SelfAttention_v1(3, 2)", 123, 0, -1, "queries", 1, {0.4306, 1.4551}},
        {"3.4.1 attn_scores_2", "book-3.4-v1", "SelfAttention_v1(3, 2)", 123, 0, -1, "attn_scores", 1,
         {1.2705, 1.8524, 1.8111, 1.0795, 0.5577, 1.5440}},
        {"3.4.1 attn_weights_2", "book-3.4-v1", "SelfAttention_v1(3, 2)", 123, 0, -1, "attn_weights", 1,
         {0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820}},
        {"3.4.2 SelfAttention_v1 row 0", "book-3.4-v1", "SelfAttention_v1(3, 2)", 123, 0, -1, "context", 0,
         {0.2996, 0.8053}},
        {"3.4.2 SelfAttention_v1 row 5", "book-3.4-v1", "SelfAttention_v1(3, 2)", 123, 0, -1, "context", 5,
         {0.2990, 0.8040}},
        {"3.4.2 SelfAttention_v2 row 0", "book-3.4-v2", "SelfAttention_v2(3, 2)", 789, 0, -1, "context", 0,
         {-0.0739, 0.0713}},
        {"3.4.2 SelfAttention_v2 row 3", "book-3.4-v2", "SelfAttention_v2(3, 2)", 789, 0, -1, "context", 3,
         {-0.0760, 0.0685}},
        {"3.5.1 attn_weights row 0", "book-3.4-v2", "SelfAttention_v2(3, 2)", 789, 0, -1, "attn_weights", 0,
         {0.1921, 0.1646, 0.1652, 0.1550, 0.1721, 0.1510}},
        {"3.5.1 masked attn_weights row 1", "", "CausalAttention(3, 2, 6, 0.0)", 789, 1, -1, "attn_weights", 1,
         {0.5517, 0.4483, 0.0, 0.0, 0.0, 0.0}},
        {"3.5.1 masked attn_weights row 4", "", "CausalAttention(3, 2, 6, 0.0)", 789, 1, -1, "attn_weights", 4,
         {0.2175, 0.1983, 0.1984, 0.1888, 0.1971, 0.0}},
        {"3.5.2 dropout(attn_weights) row 0", "book-3.5-dropout", "CausalAttention(3, 2, 6, 0.5)", 789, 1, 123,
         "attn_weights.dropout", 0, {2.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
        {"3.5.2 dropout(attn_weights) row 2", "book-3.5-dropout", "CausalAttention(3, 2, 6, 0.5)", 789, 1, 123,
         "attn_weights.dropout", 2, {0.7599, 0.6194, 0.6206, 0.0, 0.0, 0.0}},
        {"3.5.2 dropout(attn_weights) row 5", "book-3.5-dropout", "CausalAttention(3, 2, 6, 0.5)", 789, 1, 123,
         "attn_weights.dropout", 5, {0.0, 0.3327, 0.3331, 0.3084, 0.3331, 0.0}},
        {"3.5.3 CausalAttention row 0", "book-3.5-causal", "CausalAttention(3, 2, 6, 0.0)", 123, 2, -1, "context", 0,
         {-0.4519, 0.2216}},
        {"3.5.3 CausalAttention row 5", "book-3.5-causal", "CausalAttention(3, 2, 6, 0.0)", 123, 2, -1, "context", 5,
         {-0.5299, -0.1081}},
        {"3.6.1 wrapper row 0", "book-3.6-wrapper", "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)", 123, 2, -1, "output",
         0, {-0.4519, 0.2216, 0.4772, 0.1063}},
        {"3.6.1 wrapper row 5", "book-3.6-wrapper", "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)", 123, 2, -1, "output",
         5, {-0.5299, -0.1081, 0.5077, 0.3493}},
        {"exercise 3.2 d_out=1 row 0", "", "MultiHeadAttentionWrapper(3, 1, 6, 0.0, 2)", 123, 2, -1, "output", 0,
         {-0.5740, 0.2216}},
        {"exercise 3.2 d_out=1 row 5", "", "MultiHeadAttentionWrapper(3, 1, 6, 0.0, 2)", 123, 2, -1, "output", 5,
         {-0.6424, -0.1065}},
        {"3.6.2 MultiHeadAttention row 0", "book", "MultiHeadAttention(3, 2, 6, 0.0, 2)", 123, 2, -1, "output", 0,
         {0.3190, 0.4858}},
        {"3.6.2 MultiHeadAttention row 2", "book", "MultiHeadAttention(3, 2, 6, 0.0, 2)", 123, 2, -1, "output", 2,
         {0.2856, 0.3593}},
        {"3.6.2 MultiHeadAttention row 5", "book", "MultiHeadAttention(3, 2, 6, 0.0, 2)", 123, 2, -1, "output", 5,
         {0.2575, 0.4028}},
    };
    // clang-format on
    return rows;
}

// The row as the book prints it: each value rounded to four decimals ("-0.0000" reads as 0).
inline QString printed(const std::vector<float>& values)
{
    QStringList out;
    for (float v : values) {
        QString s = QString::number(v, 'f', 4);
        out << (s == QLatin1String("-0.0000") ? QStringLiteral("0.0000") : s);
    }
    return out.join(QStringLiteral(", "));
}

inline QString printed(const std::vector<double>& values)
{
    return printed(std::vector<float>(values.begin(), values.end()));
}
