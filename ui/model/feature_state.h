#pragma once
// What every tab's state (features/<tab>/<tab>_state.h) stands on: the parts of the session -- the document, the view
// state, the trace and the study -- and what the Session asks of each feature. A feature state owns its jobs and
// results, emits changed() with the parts' changes it follows plus typed signals of its own, and keeps its part of the
// session file. Its page listens to it alone.
#include "model/change_events.h"

#include <QJsonObject>
#include <QObject>

#include <functional>

namespace attnlab::ui {

class DocumentModel;
class StudyModel;
class TraceState;
class ViewModel;

struct SessionParts {
    DocumentModel* document = nullptr;
    ViewModel* view = nullptr;
    TraceState* trace = nullptr;
    StudyModel* study = nullptr;
};

// Calls `then` with every change of the parts, in `context`'s lifetime: for what shows all of them (a feature state,
// the settings column, the window's status).
void followParts(const SessionParts& parts, QObject* context, const std::function<void(ChangeFlags)>& then);

class FeatureState : public QObject {
    Q_OBJECT
public:
    // Passes every change of the parts on through changed(), after partsChanged() took it in.
    FeatureState(const SessionParts& parts, QObject* parent = nullptr);

    DocumentModel* document() const { return parts_.document; }
    ViewModel* view() const { return parts_.view; }
    TraceState* trace() const { return parts_.trace; }
    StudyModel* study() const { return parts_.study; }

    // Work of this feature still to come, which the Session's settled() waits for (a job running, or one the shown
    // tab asks for and has not started).
    virtual bool computing() const { return false; }
    // What the page shows besides the trace is still computing: a picture of the page waits for it.
    virtual bool pageBusy() const { return computing(); }
    // Esc and the Cancel button: a job of this feature that a cancel stops (the trace's is the Session's).
    virtual void cancel() {}
    // Its part of a session file: top-level keys of the file's object, absent when there is nothing to keep, so files
    // without it keep their bytes.
    virtual void saveSection(QJsonObject& /*file*/) const {}
    // Restores what saveSection wrote (a file already checked by the registry's reader); a key that is absent means
    // the feature's default.
    virtual void restoreSection(const QJsonObject& /*file*/) {}

Q_SIGNALS:
    // A change of the parts, once partsChanged() took it in.
    void changed(attnlab::ui::ChangeFlags flags);
    // A job of this feature started, progressed or delivered (besides the typed signal its page listens to): the
    // Session checks whether everything asked for is in.
    void delivered();

protected:
    // Every change of the parts, before the page hears of it: where a feature marks its results stale or asks its jobs
    // for more.
    virtual void partsChanged(ChangeFlags /*flags*/) {}

private:
    SessionParts parts_;
};

} // namespace attnlab::ui
