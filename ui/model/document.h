#pragma once
// The document: what a student's work is, as one value. Session files save it, undo and redo restore it, and
// DocumentModel (model/document_model.h) holds it for the window. Where the student looks is not in it
// (model/view_state.h), nor what is computed from it (the trace, a feature's results).
#include "call/slot.h"
#include "forward/experiment.h"
#include "model/lesson_state.h"
#include "model/study_state.h"

#include <QString>

#include <optional>
#include <variant>

namespace attnlab::ui {

struct Document {
    ExperimentSpec spec;
    QString callText;           // the call line as typed: it may not parse, and then spec.config is the last that did
    bool bookInput = false;     // the book's six tokens as input, when the config can take them
    LessonState lessons;        // the Debugging tab's choices
    ElementSelection selection; // the element followed: picking another is undone like an edit

    bool operator==(const Document& other) const;
};

// What one edit changed, as the Edit menu names it and as undo merges keystrokes: one of the constructor's slots or the
// input's sizes (core's Slot), or another part of the document. Several parts at once are Whole, as is a file loaded.
enum class DocumentPart {
    Module,
    Training,
    Seed,
    DropoutSeed,
    Text,
    Model,
    Layer,
    Weights,
    Call,
    Bug,
    TransferLines,
    ContractCall,
    Selection,
    Whole,
};
using DocumentField = std::variant<Slot, DocumentPart>;

DocumentField changedField(const Document& before, const Document& after);
// "num_heads", "the call", "tokens", "weights", "the bug", "settings".
QString fieldLabel(const DocumentField& field);
// Edits that are never typed (a file loaded, several parts at once, a click on another element) never merge.
bool mergesWhenTyped(const DocumentField& field);

} // namespace attnlab::ui
