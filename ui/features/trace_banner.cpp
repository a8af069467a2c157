#include "features/trace_banner.h"

#include "model/document_model.h"
#include "model/feature_state.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "widgets/stale_trace_banner.h"

namespace attnlab::ui {

StaleTraceBanner* traceBanner(FeatureState* state, std::vector<QWidget*> dimmed)
{
    auto* banner = new StaleTraceBanner(std::move(dimmed));
    const auto show = [banner, state] {
        const TraceState* t = state->trace();
        using Why = StaleTraceBanner::Why;
        // A lesson holding the diagnosis back (lesson 6): the last good call would be the answer, so it is not named.
        const bool held = state->view()->guide().held == QLatin1String("diagnosis");
        banner->show({t->traceStale(), held ? QObject::tr("(held back until the answer is revealed)") : t->traceCall(),
                      state->document()->callError() ? Why::CallDoesNotBind
                      : t->cancelled()               ? Why::Cancelled
                                                     : Why::SettingsHaveErrors});
    };
    QObject::connect(state, &FeatureState::changed, banner, [show](ChangeFlags flags) {
        if (flags &
            (ChangeFlag::Settings | ChangeFlag::Diagnostics | ChangeFlag::Trace | ChangeFlag::Busy | ChangeFlag::Guide))
            show();
    });
    show();
    return banner;
}

} // namespace attnlab::ui
