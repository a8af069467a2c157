#pragma once
// The Designs tab's state: the wrapper-vs-integrated equivalence of the current settings (equivalence_job.h), computed
// while the tab is shown, else marked stale and computed when it is shown.
#include "model/feature_state.h"

namespace attnlab::ui {

class EquivalenceJob;

class DesignsState : public FeatureState {
    Q_OBJECT
public:
    explicit DesignsState(const SessionParts& parts, QObject* parent = nullptr);

    const EquivalenceJob* equivalence() const { return equivalence_; }
    bool equivalencePending() const; // stale or computing: what the tab shows is not yet of these settings
    bool computing() const override;
    bool pageBusy() const override;

Q_SIGNALS:
    void equivalenceChanged(); // a check delivered

protected:
    void partsChanged(ChangeFlags flags) override;

private:
    EquivalenceJob* equivalence_;
    bool stale_ = true;
};

} // namespace attnlab::ui
