#pragma once
// A page's StaleTraceBanner (widgets/stale_trace_banner.h) kept saying whether the trace it draws is of the settings:
// made over `dimmed`, told by `state` whenever the settings, the diagnostics, the trace or the computation change.
#include <vector>

class QWidget;

namespace attnlab::ui {

class FeatureState;
class StaleTraceBanner;

StaleTraceBanner* traceBanner(FeatureState* state, std::vector<QWidget*> dimmed);

} // namespace attnlab::ui
