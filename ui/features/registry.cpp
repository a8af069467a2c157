#include "features/registry.h"

#include "features/debug/debug_state.h"
#include "features/debug/debug_view.h"
#include "features/debug/your_code_state.h"
#include "features/designs/designs_state.h"
#include "features/designs/designs_view.h"
#include "features/heatmaps/heatmaps_state.h"
#include "features/heatmaps/heatmaps_view.h"
#include "features/kvheads/kvheads_state.h"
#include "features/kvheads/kvheads_view.h"
#include "features/overview/overview_state.h"
#include "features/overview/overview_view.h"
#include "features/stepper/stepper_state.h"
#include "features/stepper/stepper_view.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "features/tradeoffs/tradeoffs_view.h"

#include <QCoreApplication>

#include <string_view>

namespace attnlab::ui {

namespace {

// The titles and tooltips keep the translation context they had as MainWindow's tr().
constexpr const char* kContext = "attnlab::ui::MainWindow";

template <class State> FeatureState* state(const SessionParts& parts, QObject* parent)
{
    return new State(parts, parent);
}

template <class Page, class State> QWidget* page(FeatureState* state)
{
    return new Page(static_cast<State*>(state));
}

constexpr FeatureInfo kFeatures[] = {
    {"stepper", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "① Step through the forward pass"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "① Forward pass"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "① Forward"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "Stage by stage: the shape, the book's line of code and the values (Ctrl+PageDown: next view)."),
     state<StepperState>, page<StepperView, StepperState>, true, nullptr, nullptr},
    {"heatmaps", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "② Attention heatmaps, per head"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "② Heatmaps, per head"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "② Heatmaps"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "Every head's attention matrix; the selected head large, readable cell by cell."),
     state<HeatmapsState>, page<HeatmapsView, HeatmapsState>, true, nullptr, nullptr},
    {"debug", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "③ Debugging"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "③ Debugging"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "③ Debug"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "The argument contract, injected bugs, weight transfer, and your own code."),
     state<DebugState>, page<DebugView, DebugState>, false, "comparison", YourCodeState::checkSection},
    {"designs", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "④ Wrapper vs integrated"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "④ Wrapper vs integrated"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "④ Designs"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "The same attention as a wrapper of heads and as one integrated module."),
     state<DesignsState>, page<DesignsView, DesignsState>, false, nullptr, nullptr},
    {"tradeoffs", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑤ Heads: the trade-offs"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑤ Trade-offs"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑤ Trade-offs"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "What more or fewer heads cost, counted and measured."),
     state<TradeoffsState>, page<TradeoffsView, TradeoffsState>, false, "sweep", TradeoffsState::checkSection},
    {"overview", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑥ Every layer's heads"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑥ Every layer\'s heads"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑥ Layers"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "A whole GPT's heads on the text, layers by heads; a click opens one in the heatmaps."),
     state<OverviewState>, page<OverviewView, OverviewState>, false, nullptr, nullptr},
    {"kvheads", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑦ Key/value heads"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑦ Key/value heads"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑦ KV heads"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "The KV cache per number of key/value heads, and a GPT's cache filled one token at a time."),
     state<KvHeadsState>, page<KvHeadsView, KvHeadsState>, false, nullptr, nullptr},
};

// The tabs the code opens by name (model/view_mode.h) are these rows, by index.
static_assert(std::string_view(kFeatures[static_cast<int>(ViewMode::Stepper)].id) == "stepper" &&
                  std::string_view(kFeatures[static_cast<int>(ViewMode::Heatmaps)].id) == "heatmaps" &&
                  std::string_view(kFeatures[static_cast<int>(ViewMode::Debug)].id) == "debug" &&
                  std::string_view(kFeatures[static_cast<int>(ViewMode::Designs)].id) == "designs" &&
                  std::string_view(kFeatures[static_cast<int>(ViewMode::Tradeoffs)].id) == "tradeoffs" &&
                  std::string_view(kFeatures[static_cast<int>(ViewMode::Overview)].id) == "overview",
              "the named tabs are the registry's rows of the same index");

} // namespace

QString FeatureInfo::title() const
{
    return QCoreApplication::translate(kContext, titleText);
}

QStringList FeatureInfo::titles() const
{
    const QString brief = QCoreApplication::translate(kContext, briefText);
    return {title(), QCoreApplication::translate(kContext, shortText), brief,
            brief.section(QLatin1Char(' '), 0, 0)}; // the number alone: "①"
}

QString FeatureInfo::tooltip() const
{
    return QCoreApplication::translate(kContext, tooltipText);
}

std::span<const FeatureInfo> featureRegistry()
{
    return kFeatures;
}

const FeatureInfo& featureInfo(ViewMode view)
{
    return kFeatures[static_cast<int>(view)];
}

ViewMode FeatureInfo::view() const
{
    return static_cast<ViewMode>(this - kFeatures);
}

std::optional<ViewMode> viewNamed(const QString& id)
{
    for (const FeatureInfo& row : kFeatures)
        if (id == QLatin1String(row.id))
            return row.view();
    return std::nullopt;
}

QStringList pageIds()
{
    QStringList ids;
    for (const FeatureInfo& row : kFeatures)
        ids << QLatin1String(row.id);
    return ids;
}

QString pageIdsInWords()
{
    QStringList ids = pageIds();
    const QString last = ids.takeLast();
    return ids.isEmpty() ? last : ids.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

} // namespace attnlab::ui
