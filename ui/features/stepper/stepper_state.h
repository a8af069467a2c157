#pragma once
// The stepper tab's state: nothing of its own to compute -- the stage, its values, the followed element and Predict
// First are the session's parts (the view state, the trace, the study) -- so it passes their changes on to the page and
// its widgets, which listen to it alone.
#include "model/feature_state.h"

namespace attnlab::ui {

class StepperState : public FeatureState {
    Q_OBJECT
public:
    using FeatureState::FeatureState;
};

} // namespace attnlab::ui
