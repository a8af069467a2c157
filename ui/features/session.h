#pragma once
// The session: what the window and the tests hold. The document (what is saved and undone), the view state (where the
// student looks), the trace (the document run through the core), the study (the followed element, Predict First) and
// one state per tab of the registry (features/registry.h), each owning its jobs. Code that needs one part takes that
// part, not the Session; the Session only creates them and says when everything asked for is in.
#include "model/feature_state.h"
#include "model/view_mode.h"

#include <QObject>

#include <functional>
#include <vector>

namespace attnlab::ui {

class PollState;

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    const SessionParts& parts() const { return parts_; }
    DocumentModel* document() const { return parts_.document; }
    ViewModel* view() const { return parts_.view; }
    TraceState* trace() const { return parts_.trace; }
    StudyModel* study() const { return parts_.study; }
    // A tab's state, by its row in the registry or by its type.
    FeatureState* feature(ViewMode tab) const { return features_.at(static_cast<std::size_t>(tab)); }
    template <class State> State* feature() const
    {
        for (FeatureState* f : features_)
            if (auto* state = qobject_cast<State*>(f))
                return state;
        return nullptr;
    }
    const std::vector<FeatureState*>& features() const { return features_; }
    // Ask the class (features/poll/): a dock, not a tab; the class's results are part of the session file.
    PollState* poll() const { return poll_; }

    // Everything asked for is computed -- the trace, the work the shown tab needs, the pictures -- and the views have
    // taken it in. --screenshot, --save-session, lesson checks and tests wait on settled(); computing() says whether
    // one is still to come.
    bool computing() const;
    // Calls `then` once, the next time the state is settled (at once, queued, when it is already).
    void whenSettled(QObject* context, std::function<void()> then);

public Q_SLOTS:
    // Esc and the Cancel button: the running computation stops at its next stage boundary (and timings being
    // measured); the last good trace stays.
    void cancel();

Q_SIGNALS:
    void settled();

private:
    void queueSettleCheck();
    void checkSettled(); // queued after every change: emits settled() once nothing is computing

    SessionParts parts_;
    std::vector<FeatureState*> features_; // by the registry's rows
    PollState* poll_;
    bool settleQueued_ = false;
};

} // namespace attnlab::ui
