#pragma once
// The window's document (model/document.h) and its edits. Every edit of the settings, the Debugging tab's lesson
// choices and the followed element goes through here and is said by changed(): Settings, Lesson or Selection. The
// trace (model/trace_state.h) follows the settings, undo (model/undo_commands.h) records every change, and session
// files capture and restore the whole value.
#include "call/call_parser.h"
#include "model/change_events.h"
#include "model/document.h"

#include <QObject>

#include <optional>

namespace attnlab::ui {

struct Preset;

class DocumentModel : public QObject {
    Q_OBJECT
public:
    explicit DocumentModel(QObject* parent = nullptr);

    const Document& document() const { return doc_; }
    const ExperimentSpec& spec() const { return doc_.spec; }
    const Config& config() const { return doc_.spec.config; }
    std::int64_t batch() const { return doc_.spec.batch; }
    std::int64_t numTokens() const { return doc_.spec.num_tokens; }
    bool training() const { return doc_.spec.training; }
    QString callText() const { return doc_.callText; }
    bool prefersBookInput() const { return doc_.bookInput; }
    bool usesBookInput() const; // the book's six embedded tokens, when the config can take them
    bool usesTextInput() const { return doc_.spec.input == InputSource::Text; }
    QString inputText() const { return QString::fromStdString(doc_.spec.text); }
    int gptLayer() const { return doc_.spec.gpt_layer; }
    // The call line's parse error, while what is typed does not parse (the spin boxes keep the last call that did).
    const std::optional<CallError>& callError() const { return callError_; }
    // What runs: spec() with the input it resolves to (the book's tokens when they fit). The one way a page or job
    // builds a request, so the user's seed, weights file and text always come along.
    ExperimentSpec effectiveSpec() const;

    // --- the settings: each is one Settings change ---
    void setConfig(const Config& config);
    // Sets one constructor slot or one input size (batch, num_tokens); qkv_bias takes 0/1.
    void setSlot(Slot slot, double value);
    void setModuleKind(ModuleKind kind);
    void setInputShape(std::int64_t batch, std::int64_t numTokens);
    // The call line: parsed on every keystroke; a call that binds replaces the config.
    void setCallText(const QString& text);
    void applyFix(const Fix& fix);
    void applyCallFix(const std::string& call); // a diagnostic's call_fix: the whole call rewritten
    void applyPreset(const Preset& preset);
    void setMemoryBudget(std::uint64_t bytes);
    void setTraining(bool training);  // dropout acts only in training mode
    void setSeed(std::uint64_t seed); // torch.manual_seed(seed) before the module is constructed
    // torch.manual_seed(seed) right before the forward; nullopt: dropout continues the init's stream.
    void setDropoutSeed(std::optional<std::uint64_t> seed);
    void useSeededInput(); // back to seeded random input from the Text input (keeps the config)
    void setGptLayer(int layer);
    // Several settings at once (the Text input and its model, a weights file): the call follows the config when
    // `callFollows`, else it is kept as typed.
    void setSpec(const ExperimentSpec& spec, bool callFollows);

    // --- the Debugging tab's lessons: each is one Lesson change ---
    const LessonState& lessonState() const { return doc_.lessons; }
    void setLessonState(const LessonState& state);
    void setBug(Bug bug);
    void setTransferLine(TransferRole role, bool written, bool transpose);
    void setTransferWidths(std::int64_t d_in, std::int64_t d_out);
    void setContractCall(std::optional<QString> call); // nullopt: follow the session's own call
    void setContractInput(std::int64_t d_in, std::int64_t num_tokens);
    void resetContract(); // back to the session's own call and input

    // --- the element followed through the layout steps: one Selection change ---
    const ElementSelection& selectedElement() const { return doc_.selection; }
    void setSelectedElement(const ElementSelection& selection);

    // The whole document at once (undo, redo, a session file): one change of every part that differs.
    void restore(const Document& document);

Q_SIGNALS:
    void changed(attnlab::ui::ChangeFlags flags);

private:
    void settingsEdited();
    void reparseCall(); // callError_ of the call text as it is

    Document doc_;
    std::optional<CallError> callError_;
};

} // namespace attnlab::ui
