#pragma once
// What the UI tests wait for: a session whose trace is in and whose worker has nothing left to do.
#include "model/session.h"

namespace testing {

inline bool idle(const attnlab::ui::Session& s)
{
    return s.trace() && !s.busy();
}

} // namespace testing
