#pragma once
// What a UI test drives: the Session with every part (document, view state, trace, study) and every feature's state,
// and a session file's capture and apply. The tests reach into all of it; the app's own code takes one part each.
#include "features/debug/debug_state.h"
#include "features/debug/your_code_state.h"
#include "features/designs/designs_state.h"
#include "features/heatmaps/heatmaps_state.h"
#include "features/overview/overview_state.h"
#include "features/session.h"
#include "features/session_state.h"
#include "features/stepper/stepper_state.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QList>
#include <QVariant>

namespace testing {

// Every change of the session's parts, in order, as a QSignalSpy of one changed(ChangeFlags) would list them:
// spy.at(i).at(0).value<ChangeFlags>().
class PartsSpy : public QObject, public QList<QVariantList> {
public:
    explicit PartsSpy(const attnlab::ui::Session& session)
    {
        attnlab::ui::followParts(session.parts(), this, [this](attnlab::ui::ChangeFlags flags) {
            append(QVariantList{QVariant::fromValue(flags)});
        });
    }
};

} // namespace testing
