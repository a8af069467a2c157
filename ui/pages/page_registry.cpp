#include "pages/page_registry.h"

#include "pages/debug/debug_view.h"
#include "pages/designs/designs_view.h"
#include "pages/heatmaps/heatmaps_view.h"
#include "pages/overview/overview_view.h"
#include "pages/stepper/stepper_view.h"
#include "model/session.h"
#include "model/timings_job.h"
#include "pages/tradeoffs/tradeoffs_view.h"

#include <QCoreApplication>

namespace attnlab::ui {

namespace {

// The titles and tooltips keep the translation context they had as MainWindow's tr().
constexpr const char* kContext = "attnlab::ui::MainWindow";

template <class Page> QWidget* make(Session* session)
{
    return new Page(session);
}

// What a page shows besides the trace, computed by the Session's jobs: a picture of the page waits for it.
// The comparison's equivalence check runs only while its tab is shown.
bool designsBusy(const Session& session)
{
    return session.view() == ViewMode::Designs && session.equivalencePending();
}

bool tradeoffsBusy(const Session& session)
{
    return session.timings()->busy();
}

bool overviewBusy(const Session& session)
{
    return session.view() == ViewMode::Overview && session.computing();
}

constexpr PageInfo kPages[] = {
    {ViewMode::Stepper, "stepper", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "① Step through the forward pass"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "Stage by stage: the shape, the book's line of code and the values (Ctrl+PageDown: next view)."),
     make<StepperView>, true, nullptr},
    {ViewMode::Heatmaps, "heatmaps", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "② Attention heatmaps, per head"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "Every head's attention matrix; the selected head large, readable cell by cell."),
     make<HeatmapsView>, true, nullptr},
    {ViewMode::Debug, "debug", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "③ Debugging"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "The argument contract, injected bugs, weight transfer, and your own code."),
     make<DebugView>, false, nullptr},
    {ViewMode::Designs, "designs", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "④ Wrapper vs integrated"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "The same attention as a wrapper of heads and as one integrated module."),
     make<DesignsView>, false, designsBusy},
    {ViewMode::Tradeoffs, "tradeoffs", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑤ Heads: the trade-offs"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "What more or fewer heads cost, counted and measured."),
     make<TradeoffsView>, false, tradeoffsBusy},
    {ViewMode::Overview, "overview", QT_TRANSLATE_NOOP("attnlab::ui::MainWindow", "⑥ Every layer's heads"),
     QT_TRANSLATE_NOOP("attnlab::ui::MainWindow",
                       "A whole GPT's heads on the text, layers by heads; a click opens one in the heatmaps."),
     make<OverviewView>, false, overviewBusy},
};

// The tab of a ViewMode is its row's index: a row out of order would open the wrong tab.
constexpr bool inViewModeOrder()
{
    for (int i = 0; i < static_cast<int>(std::size(kPages)); ++i)
        if (static_cast<int>(kPages[i].view) != i)
            return false;
    return true;
}
static_assert(inViewModeOrder(), "the registry's rows follow ViewMode's order");

} // namespace

QString PageInfo::title() const
{
    return QCoreApplication::translate(kContext, titleText);
}

QString PageInfo::tooltip() const
{
    return QCoreApplication::translate(kContext, tooltipText);
}

std::span<const PageInfo> pageRegistry()
{
    return kPages;
}

const PageInfo& pageInfo(ViewMode view)
{
    return kPages[static_cast<int>(view)];
}

std::optional<ViewMode> viewNamed(const QString& id)
{
    for (const PageInfo& page : kPages)
        if (id == QLatin1String(page.id))
            return page.view;
    return std::nullopt;
}

QStringList pageIds()
{
    QStringList ids;
    for (const PageInfo& page : kPages)
        ids << QLatin1String(page.id);
    return ids;
}

QString pageIdsInWords()
{
    QStringList ids = pageIds();
    const QString last = ids.takeLast();
    return ids.isEmpty() ? last : ids.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

} // namespace attnlab::ui
