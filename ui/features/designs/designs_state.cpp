#include "features/designs/designs_state.h"

#include "features/designs/equivalence_job.h"
#include "model/document_model.h"
#include "model/view_model.h"

namespace attnlab::ui {

DesignsState::DesignsState(const SessionParts& parts, QObject* parent)
    : FeatureState(parts, parent), equivalence_(new EquivalenceJob(this))
{
    connect(equivalence_, &EquivalenceJob::finished, this, [this] {
        Q_EMIT equivalenceChanged();
        Q_EMIT delivered();
    });
}

bool DesignsState::equivalencePending() const
{
    return stale_ || equivalence_->busy();
}

bool DesignsState::computing() const
{
    return equivalence_->busy() || (view()->tab() == ViewMode::Designs && stale_);
}

bool DesignsState::pageBusy() const
{
    return view()->tab() == ViewMode::Designs && equivalencePending();
}

void DesignsState::partsChanged(ChangeFlags flags)
{
    if (flags & ChangeFlag::Settings)
        stale_ = true;
    if (!stale_ || view()->tab() != ViewMode::Designs)
        return;
    stale_ = false;
    if (!document()->config().heads_split_d_out())
        return; // no matched-width wrapper: the tab says so from the settings alone
    equivalence_->request(document()->effectiveSpec());
}

} // namespace attnlab::ui
