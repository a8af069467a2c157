// The guided lesson on a trained model's heads: every check reads the session and its trace (the
// measures are computed by core, never written into the lesson). Its model is the shipped GPT trained
// here on the induction task, whose heads differ clearly; the last step compares the GPTs trained on The
// Verdict, whose heads stay broad.
#include "features/overview/overview_state.h"
#include "forward/stage_names.h"
#include "features/session.h"
#include "shell/lessons_detail.h"
#include "gpt/gpt_text.h"
#include "gpt/head_measures.h"
#include "model/document_model.h"
#include "model/model_job.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <algorithm>

namespace attnlab::ui {

namespace {

const QString kModel = QStringLiteral("induction-h4"); // gpt/model_paths.h: resources/models/induction-gpt-h4

bool weightsDoNotFit(const Session& s)
{
    for (const auto& d : s.trace()->diagnostics())
        if (d.code == DiagnosticCode::TrainedWeights)
            return true;
    return false;
}

// The model under study when it is one trained on the induction task (the shipped one, or one trained in
// the window), else null.
const GptModel* inductionModel(const Session& s)
{
    if (!s.trace()->usesOpenedModel())
        return nullptr;
    const GptModel* m = s.trace()->modelJob()->model()->model.get();
    return m->meta("task") == "induction" && m->settings.n_heads > 1 ? m : nullptr;
}

// The induction model at `layer` on its own run of letters: opened when it is not the model under study yet (it is
// then shown that run), then `then`.
void showLayer(const LessonContext& c, int layer, const std::function<void()>& then = {})
{
    if (const GptModel* m = inductionModel(*c.session); m && !weightsDoNotFit(*c.session)) {
        c.session->trace()->setInputText(
            QString::fromStdString(example_text(*m))); // a student's letters may not repeat
        c.session->document()->setGptLayer(layer);
        if (then)
            then();
        return;
    }
    ModelJob* job = c.session->trace()->modelJob();
    if (job->opening()) { // opened by the step's needs a moment ago: shown at this layer once it is in
        QObject::connect(
            job, &ModelJob::opened, job, [c, layer, then] { showLayer(c, layer, then); }, Qt::SingleShotConnection);
        return;
    }
    c.session->trace()->useShippedModel(kModel, layer, then); // a missing file: the check says what to open
}

// What step 1 leaves for a later step entered directly: the induction model opened, at `layer`.
std::function<void(const LessonContext&)> openedAt(int layer)
{
    return [layer](const LessonContext& c) {
        if (!inductionModel(*c.session) && !c.session->trace()->modelJob()->opening())
            showLayer(c, layer);
    };
}

CheckResult notOpened()
{
    return fail(QObject::tr("Open the GPT trained on the induction task first: Show me, or File > Open Model… and "
                            "induction-gpt-h4 in the models folder."));
}

// "0.77, 0.27 and 0.11" of every head but `skip`, in head order.
QString othersOf(const std::vector<double>& values, std::size_t skip)
{
    QStringList parts;
    for (std::size_t h = 0; h < values.size(); ++h)
        if (h != skip)
            parts << QString::number(values[h], 'f', 2);
    return parts.size() < 2
               ? parts.join(QString())
               : parts.mid(0, parts.size() - 1).join(QStringLiteral(", ")) + QObject::tr(" and ") + parts.back();
}

CheckResult checkPreviousHead(const LessonContext& c)
{
    const Session& s = *c.session;
    if (!inductionModel(s))
        return notOpened();
    if (s.document()->gptLayer() != 0)
        return fail(QObject::tr("Pick layer 0: the previous-token head is there."));
    const auto trace = s.trace()->trace();
    const Stage* w = trace ? trace->find(stage::attn_weights) : nullptr;
    if (!w || s.trace()->traceStale())
        return fail(QObject::tr("Wait for layer 0 to be computed, with the model's own call."));
    std::vector<double> previous;
    for (const HeadMeasures& m : s.trace()->headMeasures(c.session->view()->batchIndex()))
        previous.push_back(m.previous);
    if (previous.size() < 2)
        return fail(QObject::tr("Give the model a sequence of a few letters."));
    const auto best = static_cast<std::size_t>(std::max_element(previous.begin(), previous.end()) - previous.begin());
    return pass(QObject::tr("Head %1 puts %2 of its weight on the previous token; the other heads %3.")
                    .arg(best)
                    .arg(previous[best], 0, 'f', 2)
                    .arg(othersOf(previous, best)));
}

// From the overview's heads, the ones the student sees: layer 1's induction scores, layer 0's previous shares.
CheckResult checkInductionHeads(const LessonContext& c)
{
    const Session& s = *c.session;
    if (!inductionModel(s))
        return notOpened();
    const auto layers = c.session->feature<OverviewState>()->layerAttention();
    if (!layers || layers->grid.size() < 2)
        return fail(QObject::tr("Open Every layer's heads and wait for both layers."));
    std::vector<double> scores;
    for (const LayerAttention::Head& h : layers->grid[1])
        if (h.induction)
            scores.push_back(*h.induction);
    if (scores.empty())
        return fail(QObject::tr("No letter repeats in this sequence: give the model one whose run comes back."));
    double previous = 0.0;
    for (const LayerAttention::Head& h : layers->grid[0])
        previous = std::max(previous, h.measures.previous);
    const auto [low, high] = std::minmax_element(scores.begin(), scores.end());
    const auto inductive = std::count_if(scores.begin(), scores.end(), [](double v) { return v >= 0.5; });
    return pass(QObject::tr("%1 of layer 1's %2 heads are induction heads (scores %3 to %4), reading what layer "
                            "0's previous-token head (%5) wrote.")
                    .arg(inductive)
                    .arg(layers->grid[1].size())
                    .arg(*low, 0, 'f', 2)
                    .arg(*high, 0, 'f', 2)
                    .arg(previous, 0, 'f', 2));
}

} // namespace

std::vector<LessonActions> trainedHeadsActions()
{
    return {
        {QStringLiteral("feed-sentence"),
         [](const LessonContext& c) { showLayer(c, 0); },
         [](const LessonContext& c) {
             const Session& s = *c.session;
             const GptModel* m = inductionModel(s);
             if (!m)
                 return notOpened();
             if (weightsDoNotFit(s))
                 return fail(QObject::tr("Set the call back to the model's own (Ctrl+Z)."));
             return pass(QObject::tr("Layer %1 of the %2-head induction GPT receives %3 letters, each a vector of %4.")
                             .arg(s.document()->gptLayer())
                             .arg(m->settings.n_heads)
                             .arg(s.document()->numTokens())
                             .arg(s.document()->config().d_in));
         },
         {widgetTarget("text-input-variant"), widgetTarget("text-input-layer"), widgetTarget("text-input-tokens")}},
        {QStringLiteral("tell-heads-apart"),
         [](const LessonContext& c) {
             showLayer(c, 0);
             c.session->view()->setTab(ViewMode::Heatmaps);
         },
         checkPreviousHead,
         {cellsTarget("head-heatmap-0"), cellsTarget("head-heatmap-3")},
         openedAt(0)},
        {QStringLiteral("find-induction-heads"),
         [](const LessonContext& c) {
             showLayer(c, 1);
             c.session->view()->setTab(ViewMode::Overview);
         },
         checkInductionHeads,
         // The order it can rank them by (the grid itself is sized by the overview, which may scroll on a projector).
         {widgetTarget("overview-sort")},
         openedAt(1)},
        {QStringLiteral("change-d-out"),
         [](const LessonContext& c) {
             Session* s = c.session;
             showLayer(c, 0, [s] { s->document()->setSlot(Slot::d_out, 16); });
         },
         [](const LessonContext& c) {
             return weightsDoNotFit(*c.session)
                        ? pass(QObject::tr("The trained weights no longer fit; Ctrl+Z brings them back."))
                        : fail(QObject::tr("Change d_out (or num_heads) away from the model's own call."));
         },
         {widgetTarget("call-line"), widgetTarget("diagnostic-*")},
         openedAt(0)},
        {QStringLiteral("compare-heads"),
         [](const LessonContext& c) {
             c.session->view()->setTab(ViewMode::Tradeoffs);
             c.session->view()->setTradeoffsSection(TradeoffsSection::Measured);
         },
         [](const LessonContext& c) {
             return c.session->view()->tab() == ViewMode::Tradeoffs
                        ? pass(QObject::tr("The losses differ by less than their spread over seeds."))
                        : fail(QObject::tr("Open Heads: the trade-offs, then its Measured page."));
         },
         {widgetTarget("trained-losses")}},
    };
}

} // namespace attnlab::ui
