#pragma once
// Internal to book_reference(): the part that runs once the module and its config are known.
#include "lessons/recording_reference.h"

namespace attnlab {

// Runs the book's forward (trace_forward) and lays its stages out with their forms, feeds, chains and extras.
BookReference build_book_stages(BookReference ref);

} // namespace attnlab
