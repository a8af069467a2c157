#include "shell/lesson_questions.h"

#include "features/session.h"
#include "model/document_model.h"

#include <string>

namespace attnlab::ui {

std::optional<poll::Question> lessonClassQuestion(const QString& stepId, const LessonContext& context)
{
    for (const Lesson& lesson : lessons()) // a step that declares its question with its actions (a feature's lesson)
        for (const LessonStep& step : lesson.steps)
            if (step.id == stepId && step.question)
                return step.question(context);
    const Config& k = context.session->document()->config();
    const std::string id = "lesson:" + stepId.toStdString();
    const std::string d_out = std::to_string(k.d_out), heads = std::to_string(k.num_heads);
    const bool heads_module =
        k.kind == ModuleKind::MultiHeadAttention || k.kind == ModuleKind::MultiHeadAttentionWrapper;
    // gpt2-split: whether the heads split d_out, then what each head gets.
    if (stepId == QLatin1String("break-split") && k.kind == ModuleKind::MultiHeadAttention && k.num_heads > 0)
        return poll::yes_no_question(
            id, "Can num_heads = " + heads + " split d_out = " + d_out + " into heads of equal width?",
            k.heads_split_d_out());
    if (stepId == QLatin1String("mend-split") && k.kind == ModuleKind::MultiHeadAttention && k.heads_split_d_out())
        return poll::number_question(
            id, "d_out = " + d_out + " is split among " + heads + " heads. What is head_dim?", k.head_dim(),
            "head_dim = d_out / num_heads = " + d_out + " / " + heads + " = " + std::to_string(k.head_dim()));
    // view-transpose: the merge after the transpose.
    if (stepId == QLatin1String("contiguous-first") && k.kind == ModuleKind::MultiHeadAttention)
        return poll::yes_no_question(id,
                                     "Could .view() merge the heads of context_vec right after transpose(1, 2), "
                                     "without .contiguous()?",
                                     false);
    // wrapper-integrated: what stacking whole heads returns.
    if (stepId == QLatin1String("stack-heads") && k.kind == ModuleKind::MultiHeadAttentionWrapper && heads_module)
        return poll::number_question(
            id,
            "How many features per token does MultiHeadAttentionWrapper return with d_out = " + d_out +
                " and num_heads = " + heads + "?",
            k.output_width(),
            "num_heads × d_out = " + heads + " × " + d_out + " = " + std::to_string(k.output_width()));
    return std::nullopt;
}

} // namespace attnlab::ui
