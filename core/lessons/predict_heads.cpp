// "Which head looks at the previous token?": asked of a trained model's heads, answered by their measures
// (gpt/head_measures.h), never by a guess about what heads usually learn.
#include "lessons/predict.h"

#include "tensor/error.h"

#include <algorithm>
#include <cstdio>

namespace attnlab {

namespace {

std::string share(double v)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", v);
    return text;
}

} // namespace

std::optional<HeadQuestion> head_question_for(const Trace& trace, std::string_view stage,
                                              const std::vector<HeadMeasures>& measures)
{
    const Stage* s = trace.find(std::string(stage));
    if (!s || s->matrix != AttentionMatrix::Weights || s->head >= 0 || s->tensor.dim() != 4 || measures.size() < 2 ||
        static_cast<std::int64_t>(measures.size()) != s->tensor.size(1))
        return std::nullopt;
    HeadQuestion q;
    q.stage = s->name;
    q.prompt = "Which head looks at the previous token?";
    for (const HeadMeasures& m : measures)
        q.previous.push_back(m.previous);
    const auto [low, high] = std::minmax_element(q.previous.begin(), q.previous.end());
    if (!(*high > 0) || *high < kHeadsDiffer * *low)
        return std::nullopt;
    q.best = static_cast<int>(high - q.previous.begin());
    q.uniform = uniform_measures(s->tensor.size(-1)).previous;
    return q;
}

Verdict check_head_pick(const HeadQuestion& q, int head)
{
    if (head < 0 || head >= static_cast<int>(q.previous.size()))
        throw Error("head " + std::to_string(head) + " is not one of the " + std::to_string(q.previous.size()) +
                    " heads; pick 0 to " + std::to_string(q.previous.size() - 1) + ".");
    const double mine = q.previous[static_cast<std::size_t>(head)], best = q.previous[static_cast<std::size_t>(q.best)];
    const std::string evenly = " (spread evenly over the past it would be " + share(q.uniform) + ")";
    const std::string of = " of each token's weight on the token just before it";
    if (mine >= kHeadTie * best)
        return {true,
                "head " + std::to_string(head) + " puts " + share(mine) + of +
                    (head == q.best ? ", the most of the " + std::to_string(q.previous.size()) + " heads"
                                    : ", nearly as much as head " + std::to_string(q.best) + "'s " + share(best)) +
                    evenly + "."};
    return {false, "head " + std::to_string(head) + " puts " + share(mine) + of + "; head " + std::to_string(q.best) +
                       " is the one that looks at the previous token, with " + share(best) + evenly + "."};
}

} // namespace attnlab
