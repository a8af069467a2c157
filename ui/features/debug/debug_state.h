#pragma once
// The Debugging tab's state: the contract lesson's reading of its call (the pasted one, else the document's) against
// its input, the injected bug diagnosed on these settings (bug_lesson.h), and the transfer lesson's lines run on its
// small modules and on GPT-2's c_attn, and Compare With My Code (your_code_state.h). The choices themselves are the
// document's (lesson_state.h); this holds what they give.
#include "lessons/contract.h"
#include "lessons/transfer.h"
#include "model/feature_state.h"

#include <memory>
#include <optional>

namespace attnlab::ui {

class BugLesson;
class YourCodeState;

class DebugState : public FeatureState {
    Q_OBJECT
public:
    explicit DebugState(const SessionParts& parts, QObject* parent = nullptr);

    const ContractReport& contractReport() const { return *contractReport_; }
    BugLesson* bugLesson() const { return bugLesson_; }
    // Computed when first asked for after the lines change (the Debugging tab asks): a start that never opens the
    // lesson does not pay for its 768-wide GPT-2 run.
    const TransferResult& transferResult() const;
    const TransferResult& gpt2TransferResult() const;
    // Compare With My Code, the tab's last section: its recording and comparison, and its part of the session file.
    YourCodeState* yourCode() const { return yourCode_; }
    void saveSection(QJsonObject& file) const override;
    void restoreSection(const QJsonObject& file) override;

Q_SIGNALS:
    void bugDiagnosed();   // a new diagnosis of the bug (or an error)
    void bugRowSelected(); // the bug lesson's selected row moved

protected:
    void partsChanged(ChangeFlags flags) override;

private:
    void refreshContract();

    BugLesson* bugLesson_;
    YourCodeState* yourCode_;
    std::shared_ptr<const ContractReport> contractReport_;
    mutable TransferResult transferResult_, gpt2TransferResult_;
    mutable std::optional<TransferSpec> lastTransfer_, lastGpt2Transfer_; // what each result ran
};

} // namespace attnlab::ui
