#include "model/feature_state.h"

#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

namespace attnlab::ui {

void followParts(const SessionParts& parts, QObject* context, const std::function<void(ChangeFlags)>& then)
{
    QObject::connect(parts.document, &DocumentModel::changed, context, then);
    QObject::connect(parts.trace, &TraceState::changed, context, then);
    QObject::connect(parts.view, &ViewModel::changed, context, then);
    QObject::connect(parts.study, &StudyModel::changed, context, then);
}

FeatureState::FeatureState(const SessionParts& parts, QObject* parent) : QObject(parent), parts_(parts)
{
    followParts(parts, this, [this](ChangeFlags flags) {
        partsChanged(flags);
        Q_EMIT changed(flags);
    });
}

} // namespace attnlab::ui
