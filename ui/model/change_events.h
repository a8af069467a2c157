#pragma once
// What changed, said precisely. Each part of the session emits its own changed(flags) with the flags it owns:
// the document (Settings, Lesson, Selection), the view state (Stage, Head, View, Guide, Cell), the trace (Trace,
// Diagnostics, Busy) and the study (Predict). A feature state (features/<tab>/) listens to the parts its page shows and
// passes their flags on through its own changed(), besides the typed signals of its own jobs; a page listens to its
// feature state alone.
#include <QFlags>

namespace attnlab::ui {

enum class ChangeFlag {
    Settings = 0x01,    // document: config, batch, num_tokens, call text, input, weights
    Trace = 0x02,       // trace: a new trace arrived
    Stage = 0x04,       // view: the stage shown
    Head = 0x08,        // view: the selected head or batch element
    Diagnostics = 0x10, // trace: what the settings mean
    Busy = 0x20,        // trace: computing, cancelling, opening a model
    View = 0x40,        // view: the tab, the heatmaps' kind and scale, a tab's section, presentation mode
    Lesson = 0x80,      // document: a choice of the Debugging tab's lessons (lesson_state.h)
    Guide = 0x200,      // view: the guided lesson, its step or its progress
    Cell = 0x400,       // view: the heatmaps' keyboard cell
    Selection = 0x800,  // document: the element followed through the layout steps
    Predict = 0x1000,   // study: Predict First on or off, a stage answered or revealed, the tally
    Model = 0x2000,     // trace: a GPT opened whole, or a file that could not be
};
Q_DECLARE_FLAGS(ChangeFlags, ChangeFlag)

} // namespace attnlab::ui

Q_DECLARE_OPERATORS_FOR_FLAGS(attnlab::ui::ChangeFlags)
