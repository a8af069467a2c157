#pragma once
// A session file's state taken out of the window's Session and put back (the file format itself is
// model/session_file.h): the document, the view state and Predict First from the session's parts, each feature's part
// from its state, and what the format needs of the registry.
#include "model/session_file.h"

namespace attnlab::ui {

class Session;

// The tabs' ids and their parts of the file, from the registry.
const SessionFeatures& sessionFeatures();

SessionState captureState(const Session& session);
// Settings at once (one recomputation); stage, head and batch element as soon as the trace holds them; each feature
// restores its part (a compared recording is read again: a file that is gone says so in Debugging > Your code).
void applyState(Session& session, const SessionState& state);

} // namespace attnlab::ui
