#include "shell/lessons.h"
#include "widgets/lesson_target.h"

#include "shell/lesson_questions.h"
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

// The call of lesson 6's first step, with context_length and num_heads traded, and the same call mended.
const char* const kSwappedCall = "MultiHeadAttention(768, 768, 12, 0.0, 1024)";
const char* const kMendedCall = "MultiHeadAttention(768, 768, 1024, 0.0, 12)";

// GPT-2 small's widths on MultiHeadAttention, as lesson 1 leaves them (and lessons 2 and 3 read): the preset again
// unless the settings already are so. num_heads is left to the step.
void gpt2SmallWidths(const LessonContext& c)
{
    const Config& k = c.session->document()->config();
    if (k.kind != ModuleKind::MultiHeadAttention || k.d_in != 768 || k.d_out != 768 || k.context_length != 1024)
        c.session->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
}

// GPT-2 small as the stepper steps through it: the widths, and a call the trace can run.
void gpt2SmallRunning(const LessonContext& c)
{
    gpt2SmallWidths(c);
    if (c.session->trace()->hasErrors() || !c.session->document()->config().heads_split_d_out())
        c.session->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
}

// Lesson 1's second step leaves the split broken: GPT-2 small with 10 heads, which do not divide 768.
void gpt2SmallSplitBroken(const LessonContext& c)
{
    gpt2SmallWidths(c);
    if (c.session->document()->config().heads_split_d_out())
        c.session->document()->setSlot(Slot::num_heads, 10);
}

// Lesson 4's first step leaves the wrapper on the book's small settings.
void bookWrapper(const LessonContext& c)
{
    if (c.session->document()->config().kind == ModuleKind::MultiHeadAttentionWrapper)
        return;
    c.session->document()->applyPreset(*findPreset(QStringLiteral("book")));
    c.session->document()->setModuleKind(ModuleKind::MultiHeadAttentionWrapper);
}

// Lesson 6's first step leaves the call mended: every value in its slot.
void mendedCall(const LessonContext& c)
{
    const Config& k = c.session->document()->config();
    if (c.session->document()->callError() || k.kind != ModuleKind::MultiHeadAttention || k.context_length != 1024 ||
        k.num_heads != 12)
        c.session->document()->setCallText(QLatin1String(kMendedCall));
}

Show showStage(const char* name)
{
    return [name](const LessonContext& c) {
        gpt2SmallRunning(c); // also the step's needs: Show me on settings changed since
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
           {widgetTarget("call-line"), widgetTarget("diagnostic-*"), widgetTarget("fix-*")},
           gpt2SmallWidths,
           {},
           breakSplitQuestion},
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
           {widgetTarget("num_heads"), widgetTarget("head-dim")},
           gpt2SmallSplitBroken,
           {},
           mendSplitQuestion}}},
        {QStringLiteral("follow-tensors"),
         {{QStringLiteral("wide-projection"),
           showStage(stage::queries),
           atStage(stage::queries, QObject::tr("Yes: one wide projection, %1 (%2).")),
           {diagramTarget("blocks"), codeTarget("queries = self.W_query(x)")},
           gpt2SmallRunning},
          {QStringLiteral("scores-per-head"),
           showStage(stage::attn_scores),
           atStage(stage::attn_scores, QObject::tr("Yes: one tokens × tokens matrix per head, %1.")),
           {diagramTarget("blocks"), codeTarget("attn_scores = queries @ keys.transpose(2, 3)")},
           gpt2SmallRunning},
          {QStringLiteral("back-to-d-out"),
           showStage(stage::output),
           atStage(stage::output, QObject::tr("Yes: back to (b, num_tokens, d_out) = %1.")),
           {diagramTarget("blocks"), codeTarget("context_vec = self.out_proj(context_vec)")},
           gpt2SmallRunning}}},
        {QStringLiteral("view-transpose"),
         {{QStringLiteral("view-relabels"),
           showStage(stage::queries_view),
           atStage(stage::queries_view, notContiguousAfter),
           {diagramTarget("strides"), diagramTarget("badges"),
            codeTarget("queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)")},
           gpt2SmallRunning},
          {QStringLiteral("transpose-swaps"),
           showStage(stage::queries_heads),
           atStage(stage::queries_heads, notContiguousAfter),
           {diagramTarget("strides"), diagramTarget("badges"), codeTarget("queries = queries.transpose(1, 2)")},
           gpt2SmallRunning},
          {QStringLiteral("contiguous-first"),
           showStage(stage::context_transposed),
           atStage(stage::context_transposed, notContiguousAfter),
           {diagramTarget("badges"), codeTarget("context_vec = (attn_weights @ values).transpose(1, 2)")},
           gpt2SmallRunning,
           {},
           contiguousQuestion}}},
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
           {widgetTarget("module-class"), diagramTarget("blocks")},
           {},
           {},
           stackHeadsQuestion},
          {QStringLiteral("split-projection"),
           [](const LessonContext& c) { c.session->view()->setTab(ViewMode::Designs); },
           [](const LessonContext& c) {
               return c.session->view()->tab() == ViewMode::Designs
                          ? pass(QObject::tr("This is the side-by-side comparison of the two designs."))
                          : fail(QObject::tr("Open the \"Wrapper vs integrated\" tab."));
           },
           {widgetTarget("design-layout")},
           bookWrapper}}},
        {QStringLiteral("first-divergence"),
         {{QStringLiteral("first-stage"),
           [](const LessonContext& c) {
               debugSection(DebugSection::Bugs)(c);
               if (answerHeld(c, "divergence")) // the room walks the stages first; Reveal selects the row
                   return;
               BugLesson* lesson = c.session->feature<DebugState>()->bugLesson();
               lesson->setBug(lesson->bug()); // diagnosed now when stale, even before the page is shown
               lesson->setSelectedRow(lesson->firstDivergenceRow());
           },
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
            widgetTarget("divergence-diagram")},
           {},
           QStringLiteral("divergence"),
           firstDivergenceQuestion}}},
        {QStringLiteral("argument-contract"),
         {{QStringLiteral("slot-by-slot"),
           [](const LessonContext& c) {
               // The question first; once the diagnosis is revealed, Show me mends the call it put there.
               const bool swappedShown = c.session->document()->callText() == QLatin1String(kSwappedCall);
               c.session->document()->setCallText(
                   QLatin1String(swappedShown && !answerHeld(c, "diagnosis") ? kMendedCall : kSwappedCall));
           },
           [](const LessonContext& c) {
               const Config& k = c.session->document()->config();
               if (c.session->document()->callError() || k.context_length != 1024 || k.num_heads != 12)
                   return fail(QObject::tr("Read the call slot by slot: context_length is the third value, "
                                           "num_heads the fifth."));
               return pass(QObject::tr("Every value is in its slot: context_length 1024, num_heads 12."));
           },
           {widgetTarget("call-line")},
           {},
           QStringLiteral("diagnosis"),
           [](const LessonContext& c) { return swappedSlotQuestion(c, kSwappedCall); }},
          {QStringLiteral("slots-named"),
           debugSection(DebugSection::Contract),
           [](const LessonContext& c) {
               return c.session->view()->tab() == ViewMode::Debug
                          ? pass(QObject::tr("Here each value is named by the slot it fills."))
                          : fail(QObject::tr("Open the Debugging tab's argument-contract section."));
           },
           {widgetTarget("contract-call"), widgetTarget("contract-chips")},
           mendedCall}}},
        {QStringLiteral("weight-transfer"),
         {{QStringLiteral("three-lines"),
           [](const LessonContext& c) {
               debugSection(DebugSection::Transfer)(c);
               for (TransferRole role : {TransferRole::Query, TransferRole::Key, TransferRole::Value})
                   c.session->document()->setTransferLine(role, true, true);
           },
           [](const LessonContext& c) {
               const TransferResult& r = c.session->feature<DebugState>()->transferResult();
               return r.status == TransferStatus::Match
                          ? pass(QObject::tr("The outputs match: all three lines are written, each with .T."))
                          : fail(QObject::tr("The outputs do not match yet: write all three lines, each with .T."));
           },
           {widgetTarget("transfer-code-query"), widgetTarget("transfer-code-key"), widgetTarget("transfer-code-value"),
            widgetTarget("transpose-query"), widgetTarget("transfer-badge")},
           {},
           {},
           transposeQuestion}}},
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
        LessonStep step{section.id, std::move(section.title), std::move(section.text), {}, {}, {}, {}, {}, {}};
        const auto a =
            std::find_if(actions.begin(), actions.end(), [&](const Actions& x) { return x.step == step.id; });
        if (!step.id.isEmpty() && a != actions.end()) {
            step.showMe = a->show;
            step.check = a->check;
            step.targets = a->targets;
            step.needs = a->needs;
            step.holds = a->holds;
            step.question = a->question;
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

bool answerHeld(const LessonContext& c, const char* what)
{
    return c.session->view()->guide().held == QLatin1String(what);
}

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
