// The guided lesson on a trained model's heads: every check reads the session and its trace (the
// measures are computed by core, never written into the lesson).
#include "forward/stage_names.h"
#include "features/session.h"
#include "shell/lessons_detail.h"
#include "gpt/head_measures.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

namespace attnlab::ui {

namespace {

bool weightsDoNotFit(const Session& s)
{
    for (const auto& d : s.trace()->diagnostics())
        if (d.code == DiagnosticCode::TrainedWeights)
            return true;
    return false;
}

} // namespace

std::vector<LessonActions> trainedHeadsActions()
{
    return {
        {QStringLiteral("feed-sentence"),
         [](const LessonContext& c) { c.session->trace()->useTrainedModel(4, 1); },
         [](const LessonContext& c) {
             const Session& s = *c.session;
             if (!s.document()->usesTextInput())
                 return fail(QObject::tr("Tick \"Text through a GPT trained on The Verdict\" first."));
             if (s.trace()->gptHeads() != 4 || s.document()->gptLayer() != 1 || weightsDoNotFit(s))
                 return fail(QObject::tr("Pick 4 heads and layer 1, with the model's own call."));
             return pass(QObject::tr("Layer 1 of the 4-head model receives %1 tokens, each a vector of %2.")
                             .arg(s.document()->numTokens())
                             .arg(s.document()->config().d_in));
         },
         {widgetTarget("text-input-enabled"), widgetTarget("text-input-variant"), widgetTarget("text-input-layer"),
          widgetTarget("text-input-tokens")}},
        {QStringLiteral("tell-heads-apart"),
         [](const LessonContext& c) {
             if (!c.session->document()->usesTextInput())
                 c.session->trace()->useTrainedModel(4, 1);
             c.session->view()->setTab(ViewMode::Heatmaps);
         },
         [](const LessonContext& c) {
             const auto trace = c.session->trace()->trace();
             const Stage* w = trace ? trace->find(stage::attn_weights) : nullptr;
             if (!c.session->document()->usesTextInput() || !w || w->tensor.size(1) < 2)
                 return fail(QObject::tr("Show a trained model with several heads on a sentence first."));
             const std::vector<HeadMeasures>& m = c.session->trace()->headMeasures(c.session->view()->batchIndex());
             std::size_t first = 0, focused = 0;
             for (std::size_t h = 1; h < m.size(); ++h) {
                 first = m[h].first > m[first].first ? h : first;
                 focused = m[h].entropy < m[focused].entropy ? h : focused;
             }
             return pass(QObject::tr("Head %1 puts the most on the first token (%2); head %3 is the most "
                                     "focused (entropy %4 nats).")
                             .arg(first)
                             .arg(m[first].first, 0, 'f', 2)
                             .arg(focused)
                             .arg(m[focused].entropy, 0, 'f', 2));
         },
         {cellsTarget("head-heatmap-0"), cellsTarget("head-heatmap-3")}},
        {QStringLiteral("change-d-out"),
         [](const LessonContext& c) { c.session->document()->setSlot(Slot::d_out, 64); },
         [](const LessonContext& c) {
             return weightsDoNotFit(*c.session)
                        ? pass(QObject::tr("The trained weights no longer fit; Ctrl+Z brings them back."))
                        : fail(QObject::tr("Change d_out (or num_heads) away from the model's own call."));
         },
         {widgetTarget("call-line"), widgetTarget("diagnostic-*")}},
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
