#include "shell/lesson_questions.h"

#include "features/debug/bug_lesson.h"
#include "features/debug/debug_state.h"
#include "features/session.h"
#include "model/document_model.h"

#include <algorithm>
#include <string>

namespace attnlab::ui {

std::optional<poll::Question> lessonClassQuestion(const QString& stepId, const LessonContext& context)
{
    for (const Lesson& lesson : lessons())
        for (const LessonStep& step : lesson.steps)
            if (step.id == stepId)
                return step.question ? step.question(context) : std::nullopt;
    return std::nullopt;
}

std::optional<poll::Question> breakSplitQuestion(const LessonContext& c)
{
    const Config& k = c.session->document()->config();
    if (k.kind != ModuleKind::MultiHeadAttention || k.num_heads <= 0)
        return std::nullopt;
    return poll::yes_no_question("lesson:break-split",
                                 "Can num_heads = " + std::to_string(k.num_heads) +
                                     " split d_out = " + std::to_string(k.d_out) + " into heads of equal width?",
                                 k.heads_split_d_out());
}

std::optional<poll::Question> mendSplitQuestion(const LessonContext& c)
{
    const Config& k = c.session->document()->config();
    if (k.kind != ModuleKind::MultiHeadAttention || !k.heads_split_d_out())
        return std::nullopt;
    const std::string d_out = std::to_string(k.d_out), heads = std::to_string(k.num_heads);
    return poll::number_question(
        "lesson:mend-split", "d_out = " + d_out + " is split among " + heads + " heads. What is head_dim?",
        k.head_dim(), "head_dim = d_out / num_heads = " + d_out + " / " + heads + " = " + std::to_string(k.head_dim()));
}

std::optional<poll::Question> contiguousQuestion(const LessonContext& c)
{
    if (c.session->document()->config().kind != ModuleKind::MultiHeadAttention)
        return std::nullopt;
    return poll::yes_no_question("lesson:contiguous-first",
                                 "Could .view() merge the heads of context_vec right after transpose(1, 2), "
                                 "without .contiguous()?",
                                 false);
}

std::optional<poll::Question> stackHeadsQuestion(const LessonContext& c)
{
    const Config& k = c.session->document()->config();
    if (k.kind != ModuleKind::MultiHeadAttentionWrapper)
        return std::nullopt;
    const std::string d_out = std::to_string(k.d_out), heads = std::to_string(k.num_heads);
    return poll::number_question(
        "lesson:stack-heads",
        "How many features per token does MultiHeadAttentionWrapper return with d_out = " + d_out +
            " and num_heads = " + heads + "?",
        k.output_width(), "num_heads × d_out = " + heads + " × " + d_out + " = " + std::to_string(k.output_width()));
}

std::optional<poll::Question> firstDivergenceQuestion(const LessonContext& c)
{
    const BugLesson* lesson = c.session->feature<DebugState>()->bugLesson();
    const int first = lesson->firstDivergenceRow();
    if (!lesson->diagnosis() || first < 0)
        return std::nullopt;
    const auto& rows = lesson->diagnosis()->stages;
    const int start = std::clamp(first - 3, 0, std::max(0, static_cast<int>(rows.size()) - 6));
    const int end = std::min(static_cast<int>(rows.size()), start + 6);
    std::vector<std::string> choices;
    for (int i = start; i < end; ++i)
        choices.push_back(rows[static_cast<std::size_t>(i)].stage);
    if (choices.size() < 2)
        return std::nullopt;
    poll::Question q = poll::from_choices("At which stage does the forward with the injected bug first part from the "
                                          "book's?",
                                          choices, first - start);
    q.id = "lesson:first-stage";
    return q;
}

std::optional<poll::Question> swappedSlotQuestion(const LessonContext& c, const char* swappedCall)
{
    if (c.session->document()->callText() != QLatin1String(swappedCall))
        return std::nullopt; // mended already: nothing to read
    poll::Question q = poll::from_choices(std::string("As written, which slot of ") + swappedCall + " does 1024 fill?",
                                          {"d_in", "d_out", "context_length", "dropout", "num_heads"}, 4);
    q.id = "lesson:slot-by-slot";
    q.fields.front().explanation = "the fifth value fills num_heads: (d_in, d_out, context_length, dropout, num_heads)";
    return q;
}

std::optional<poll::Question> transposeQuestion(const LessonContext& c)
{
    const TransferSpec& t = c.session->document()->lessonState().transfer;
    if (t.d_in == t.d_out)
        return std::nullopt; // a square matrix fits either way round: the question would not tell
    const std::string in = std::to_string(t.d_in), out = std::to_string(t.d_out);
    return poll::yes_no_question("lesson:three-lines",
                                 "SelfAttention_v2's W_query is nn.Linear(" + in + ", " + out +
                                     "). Can its .weight be copied into SelfAttention_v1's W_query (" + in + " × " +
                                     out + ") without .T?",
                                 false);
}

} // namespace attnlab::ui
