#include "shell/lessons.h"
#include "widgets/lesson_target.h"

#include "shell/lessons_detail.h"

#include "features/debug/bug_lesson.h"
#include "model/presets.h"
#include "features/session.h"
#include "features/debug/debug_state.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QFile>
#include <QRegularExpression>
#include <QWidget>

#include <algorithm>

namespace attnlab::ui {

namespace {

using Show = std::function<void(const LessonContext&)>;
using Check = std::function<CheckResult(const LessonContext&)>;
using Actions = LessonActions;

Show preset(const char* id)
{
    return [id](const LessonContext& c) { c.session->document()->applyPreset(*findPreset(QLatin1String(id))); };
}

Show showStage(const char* name, const char* presetId = "gpt2-small")
{
    return [name, presetId](const LessonContext& c) {
        if (c.session->document()->config().kind != ModuleKind::MultiHeadAttention || c.session->trace()->hasErrors())
            c.session->document()->applyPreset(*findPreset(QLatin1String(presetId)));
        c.session->view()->setTab(ViewMode::Stepper);
        c.session->view()->setStageByName(QLatin1String(name));
    };
}

Check atStage(const char* name, const QString& why)
{
    return [name, why](const LessonContext& c) {
        const Stage* s = c.session->view()->stage();
        if (!s || s->name != name)
            return fail(QObject::tr("Step to %1 first (Right arrow or Next); you are at %2.")
                            .arg(QLatin1String(name), s ? QString::fromStdString(s->name) : QObject::tr("no stage")));
        // %1 is the shape; %2, where a message has it, the contiguity (arg() with an argument too many warns).
        QString text = why.arg(QString::fromStdString(shape_to_string(s->tensor.shape())));
        if (why.contains(QLatin1String("%2")))
            text = text.arg(s->tensor.is_contiguous() ? QObject::tr("contiguous") : QObject::tr("not contiguous"));
        return pass(text);
    };
}

Show debugSection(DebugSection section)
{
    return [section](const LessonContext& c) {
        c.session->view()->setTab(ViewMode::Debug);
        c.session->view()->setDebugSection(section);
    };
}

CheckResult gpt2Small(const LessonContext& c)
{
    const Config& k = c.session->document()->config();
    if (k.kind != ModuleKind::MultiHeadAttention)
        return fail(QObject::tr("Choose the MultiHeadAttention module first."));
    for (const auto& [slot, have, want] : {std::tuple{"d_in", k.d_in, 768},
                                           {"d_out", k.d_out, 768},
                                           {"context_length", k.context_length, 1024},
                                           {"num_heads", k.num_heads, 12}})
        if (have != want)
            return fail(QObject::tr("%1 is %2; GPT-2 small uses %3.").arg(QLatin1String(slot)).arg(have).arg(want));
    return pass(QObject::tr("Right: 768 / 12 splits evenly, so every head gets head_dim = 64."));
}

std::map<QString, std::vector<Actions>> actionTable()
{
    const auto notContiguousAfter = QObject::tr("Yes: the shape is %1 and the tensor is %2.");
    return {
        {QStringLiteral("gpt2-split"),
         {{QStringLiteral("fill-slots"),
           preset("gpt2-small"),
           gpt2Small,
           {widgetTarget("d_in"), widgetTarget("d_out"), widgetTarget("context_length"), widgetTarget("num_heads"),
            widgetTarget("head-dim")}},
          {QStringLiteral("break-split"),
           [](const LessonContext& c) { c.session->document()->setSlot(Slot::num_heads, 10); },
           [](const LessonContext& c) {
               for (const auto& d : c.session->trace()->diagnostics())
                   if (d.code == DiagnosticCode::HeadSplit)
                       return pass(QObject::tr("That is the diagnostic: %1").arg(QString::fromStdString(d.message)));
               return fail(QObject::tr("Type a num_heads that does not divide d_out (10, say) to see the refusal."));
           },
           {widgetTarget("call-line"), widgetTarget("diagnostic-*"), widgetTarget("fix-*")}},
          {QStringLiteral("mend-split"),
           [](const LessonContext& c) { c.session->document()->setSlot(Slot::num_heads, 12); },
           [](const LessonContext& c) {
               const Config& k = c.session->document()->config();
               if (!k.heads_split_d_out())
                   return fail(
                       QObject::tr("num_heads %1 still does not divide d_out %2.").arg(k.num_heads).arg(k.d_out));
               if (k.head_dim() != 64)
                   return fail(
                       QObject::tr("The split is whole but head_dim is %1; GPT-2 small's is 64.").arg(k.head_dim()));
               return pass(QObject::tr("num_heads divides d_out and head_dim is 64, as in GPT-2 small."));
           },
           {widgetTarget("num_heads"), widgetTarget("head-dim")}}}},
        {QStringLiteral("follow-tensors"),
         {{QStringLiteral("wide-projection"),
           showStage(stage::queries),
           atStage(stage::queries, QObject::tr("Yes: one wide projection, %1 (%2).")),
           {diagramTarget("blocks"), codeTarget("queries = self.W_query(x)")}},
          {QStringLiteral("scores-per-head"),
           showStage(stage::attn_scores),
           atStage(stage::attn_scores, QObject::tr("Yes: one tokens × tokens matrix per head, %1.")),
           {diagramTarget("blocks"), codeTarget("attn_scores = queries @ keys.transpose(2, 3)")}},
          {QStringLiteral("back-to-d-out"),
           showStage(stage::output),
           atStage(stage::output, QObject::tr("Yes: back to (b, num_tokens, d_out) = %1.")),
           {diagramTarget("blocks"), codeTarget("context_vec = self.out_proj(context_vec)")}}}},
        {QStringLiteral("view-transpose"),
         {{QStringLiteral("view-relabels"),
           showStage(stage::queries_view),
           atStage(stage::queries_view, notContiguousAfter),
           {diagramTarget("strides"), diagramTarget("badges"),
            codeTarget("queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)")}},
          {QStringLiteral("transpose-swaps"),
           showStage(stage::queries_heads),
           atStage(stage::queries_heads, notContiguousAfter),
           {diagramTarget("strides"), diagramTarget("badges"), codeTarget("queries = queries.transpose(1, 2)")}},
          {QStringLiteral("contiguous-first"),
           showStage(stage::context_transposed),
           atStage(stage::context_transposed, notContiguousAfter),
           {diagramTarget("badges"), codeTarget("context_vec = (attn_weights @ values).transpose(1, 2)")}}}},
        {QStringLiteral("wrapper-integrated"),
         {{QStringLiteral("stack-heads"),
           [](const LessonContext& c) {
               c.session->document()->applyPreset(*findPreset(QStringLiteral("book")));
               c.session->document()->setModuleKind(ModuleKind::MultiHeadAttentionWrapper);
               c.session->view()->setTab(ViewMode::Stepper);
           },
           [](const LessonContext& c) {
               const Config& k = c.session->document()->config();
               if (k.kind != ModuleKind::MultiHeadAttentionWrapper)
                   return fail(QObject::tr("Pick MultiHeadAttentionWrapper in the module box."));
               return pass(
                   QObject::tr("The wrapper returns %1 features per token: num_heads × d_out.").arg(k.output_width()));
           },
           {widgetTarget("module-class"), diagramTarget("blocks")}},
          {QStringLiteral("split-projection"),
           [](const LessonContext& c) { c.session->view()->setTab(ViewMode::Designs); },
           [](const LessonContext& c) {
               return c.session->view()->tab() == ViewMode::Designs
                          ? pass(QObject::tr("This is the side-by-side comparison of the two designs."))
                          : fail(QObject::tr("Open the \"Wrapper vs integrated\" tab."));
           },
           {widgetTarget("design-layout")}}}},
        {QStringLiteral("first-divergence"),
         {{QStringLiteral("first-stage"),
           debugSection(DebugSection::Bugs),
           [](const LessonContext& c) {
               if (c.session->view()->tab() != ViewMode::Debug ||
                   c.session->view()->debugSection() != DebugSection::Bugs)
                   return fail(QObject::tr("Open the Debugging tab and its injected-bugs section."));
               const BugLesson* lesson = c.session->feature<DebugState>()->bugLesson();
               const int first = lesson->firstDivergenceRow();
               if (first < 0)
                   return fail(QObject::tr("This bug changes no stage on these settings; pick another bug."));
               if (lesson->selectedRow() != first)
                   return fail(QObject::tr("Select the first row where the shapes or values part, not a later one."));
               return pass(QObject::tr("Yes: that is the first divergence, the line to read first."));
           },
           {widgetTarget("divergence-verdict"), widgetTarget("book-stages"), widgetTarget("buggy-stages"),
            widgetTarget("divergence-diagram")}}}},
        {QStringLiteral("argument-contract"),
         {{QStringLiteral("slot-by-slot"),
           [](const LessonContext& c) {
               c.session->document()->setCallText(QStringLiteral("MultiHeadAttention(768, 768, 12, 0.0, 1024)"));
           },
           [](const LessonContext& c) {
               const Config& k = c.session->document()->config();
               if (c.session->document()->callError() || k.context_length != 1024 || k.num_heads != 12)
                   return fail(QObject::tr("Read the call slot by slot: context_length is the third value, "
                                           "num_heads the fifth."));
               return pass(QObject::tr("Every value is in its slot: context_length 1024, num_heads 12."));
           },
           {widgetTarget("call-line")}},
          {QStringLiteral("slots-named"),
           debugSection(DebugSection::Contract),
           [](const LessonContext& c) {
               return c.session->view()->tab() == ViewMode::Debug
                          ? pass(QObject::tr("Here each value is named by the slot it fills."))
                          : fail(QObject::tr("Open the Debugging tab's argument-contract section."));
           },
           {widgetTarget("contract-call"), widgetTarget("contract-chips")}}}},
        {QStringLiteral("weight-transfer"),
         {{QStringLiteral("three-lines"),
           debugSection(DebugSection::Transfer),
           [](const LessonContext& c) {
               const TransferResult& r = c.session->feature<DebugState>()->transferResult();
               return r.status == TransferStatus::Match
                          ? pass(QObject::tr("The outputs match: all three lines are written, each with .T."))
                          : fail(QObject::tr("The outputs do not match yet: write all three lines, each with .T."));
           },
           {widgetTarget("transfer-code-query"), widgetTarget("transfer-code-key"), widgetTarget("transfer-code-value"),
            widgetTarget("transpose-query"), widgetTarget("transfer-badge")}}}},
        {QStringLiteral("trained-heads"), trainedHeadsActions()},
        {QStringLiteral("several-heads"), severalHeadsActions()},
        {QStringLiteral("kv-heads"), kvHeadsActions()},
    };
}

Lesson loadLesson(const QString& id, const std::vector<Actions>& actions)
{
    Lesson lesson;
    lesson.id = id;
    QFile file(QStringLiteral(":/lessons/%1.md").arg(id));
    if (!file.open(QIODevice::ReadOnly))
        return lesson;
    for (LessonSection& section : splitLessonMarkdown(QString::fromUtf8(file.readAll()), &lesson.title)) {
        LessonStep step{section.id, std::move(section.title), std::move(section.text), {}, {}, {}};
        const auto a =
            std::find_if(actions.begin(), actions.end(), [&](const Actions& x) { return x.step == step.id; });
        if (!step.id.isEmpty() && a != actions.end()) {
            step.showMe = a->show;
            step.check = a->check;
            step.targets = a->targets;
        }
        lesson.steps.push_back(std::move(step));
    }
    return lesson;
}

const QStringList& lessonOrder()
{
    static const QStringList order{"gpt2-split",       "follow-tensors",    "view-transpose",  "wrapper-integrated",
                                   "first-divergence", "argument-contract", "weight-transfer", "trained-heads",
                                   "several-heads",    "kv-heads"};
    return order;
}

} // namespace

std::vector<LessonSection> splitLessonMarkdown(const QString& markdown, QString* title)
{
    static const QRegularExpression withId(QStringLiteral("^(.*\\S)\\s*\\{#([a-z0-9-]+)\\}$"));
    std::vector<LessonSection> steps;
    for (const QString& line : markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("## "))) {
            const QString heading = line.mid(3).trimmed();
            const QRegularExpressionMatch m = withId.match(heading);
            steps.push_back(m.hasMatch() ? LessonSection{m.captured(2), m.captured(1), {}}
                                         : LessonSection{{}, heading, {}});
        } else if (line.startsWith(QLatin1String("# ")) && title)
            *title = line.mid(2).trimmed();
        else if (!steps.empty())
            steps.back().text += line + QLatin1Char('\n');
    }
    for (auto& s : steps)
        s.text = s.text.trimmed();
    return steps;
}

QStringList lessonTableProblems()
{
    QStringList problems;
    const auto table = actionTable();
    for (const QString& id : lessonOrder()) {
        QFile file(QStringLiteral(":/lessons/%1.md").arg(id));
        if (!file.open(QIODevice::ReadOnly)) {
            problems << QStringLiteral("lesson %1: no resources/lessons/%1.md").arg(id);
            continue;
        }
        QStringList seen;
        for (const LessonSection& s : splitLessonMarkdown(QString::fromUtf8(file.readAll()), nullptr)) {
            if (s.id.isEmpty())
                problems << QStringLiteral("lesson %1: step \"%2\" has no {#id} after its heading").arg(id, s.title);
            else if (seen.contains(s.id))
                problems << QStringLiteral("lesson %1: step id %2 is given twice").arg(id, s.id);
            seen << s.id;
        }
        const auto actions = table.find(id);
        if (actions == table.end())
            continue;
        for (const Actions& a : actions->second)
            if (!seen.contains(a.step))
                problems << QStringLiteral("lesson %1: actions for step %2, which its text does not have (steps: %3)")
                                .arg(id, a.step, seen.join(QStringLiteral(", ")));
    }
    return problems;
}

bool stepPointsInto(const LessonStep& step, const QWidget* container)
{
    for (const LessonTarget& t : step.targets)
        if (t.kind == LessonTarget::Kind::Widget && lessonTarget(container, t.name, false))
            return true;
    return false;
}

const std::vector<Lesson>& lessons()
{
    static const std::vector<Lesson> all = [] {
        const auto table = actionTable();
        std::vector<Lesson> out;
        for (const QString& id : lessonOrder())
            out.push_back(loadLesson(id, table.at(id)));
        return out;
    }();
    return all;
}

const Lesson* findLesson(const QString& id)
{
    for (const Lesson& l : lessons())
        if (l.id == id)
            return &l;
    return nullptr;
}

QStringList lessonIds()
{
    QStringList ids;
    for (const Lesson& l : lessons())
        ids << l.id;
    return ids;
}

} // namespace attnlab::ui
