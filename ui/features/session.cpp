#include "features/session.h"

#include "features/poll/poll_state.h"
#include "features/registry.h"
#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QMetaObject>

namespace attnlab::ui {

Session::Session(QObject* parent) : QObject(parent)
{
    // In this order: the trace hears of an edit first, then the view (clamped to a new trace), then everyone else.
    parts_.document = new DocumentModel(this);
    parts_.trace = new TraceState(parts_.document, this);
    parts_.view = new ViewModel(parts_.document, parts_.trace, this);
    parts_.study = new StudyModel(parts_.document, parts_.trace, parts_.view, this);
    for (const FeatureInfo& row : featureRegistry())
        features_.push_back(row.createState(parts_, this));
    poll_ = new PollState(this);
    // Every change may be the last one of a burst: once nothing computes, settled() follows.
    const auto changed = [this] { queueSettleCheck(); };
    connect(parts_.document, &DocumentModel::changed, this, changed);
    connect(parts_.trace, &TraceState::changed, this, changed);
    connect(parts_.view, &ViewModel::changed, this, changed);
    connect(parts_.study, &StudyModel::changed, this, changed);
    for (FeatureState* f : features_)
        connect(f, &FeatureState::delivered, this, changed);
}

Session::~Session()
{
    // The features' jobs go first: a job finishing while the parts it reads are destroyed would reach into them.
    for (FeatureState* f : features_)
        delete f;
}

bool Session::computing() const
{
    if (parts_.trace->busy())
        return true;
    for (const FeatureState* f : features_)
        if (f->computing())
            return true;
    return false;
}

void Session::cancel()
{
    for (FeatureState* f : features_)
        f->cancel();
    parts_.trace->cancel();
}

void Session::queueSettleCheck()
{
    if (settleQueued_)
        return;
    settleQueued_ = true;
    QMetaObject::invokeMethod(this, &Session::checkSettled, Qt::QueuedConnection);
}

void Session::checkSettled()
{
    settleQueued_ = false;
    if (!computing())
        Q_EMIT settled();
}

void Session::whenSettled(QObject* context, std::function<void()> then)
{
    connect(this, &Session::settled, context, std::move(then), Qt::SingleShotConnection);
    if (!computing() && !settleQueued_)
        queueSettleCheck();
}

} // namespace attnlab::ui
