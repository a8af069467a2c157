#include "features/debug/debug_state.h"

#include "features/debug/bug_lesson.h"
#include "features/debug/your_code_state.h"
#include "model/document_model.h"
#include "model/view_model.h"

namespace attnlab::ui {

DebugState::DebugState(const SessionParts& parts, QObject* parent)
    : FeatureState(parts, parent), bugLesson_(new BugLesson(parts.document, this)), yourCode_(new YourCodeState(this))
{
    connect(bugLesson_, &BugLesson::changed, this, &DebugState::bugDiagnosed);
    connect(yourCode_, &YourCodeState::comparisonChanged, this, &FeatureState::delivered);
    connect(bugLesson_, &BugLesson::rowSelected, this, &DebugState::bugRowSelected);
    refreshContract();
}

void DebugState::partsChanged(ChangeFlags flags)
{
    if (flags & (ChangeFlag::Lesson | ChangeFlag::Settings))
        refreshContract();
    bugLesson_->documentChanged(flags);
    if (flags & ChangeFlag::Guide)
        bugLesson_->setAnswerHeld(view()->guide().held == QLatin1String("divergence"));
}

void DebugState::saveSection(QJsonObject& file) const
{
    yourCode_->saveSection(file);
}

void DebugState::restoreSection(const QJsonObject& file)
{
    yourCode_->restoreSection(file);
}

void DebugState::refreshContract()
{
    const LessonState& lessons = document()->lessonState();
    ContractInput input;
    input.d_in = lessons.contractDIn.value_or(document()->config().d_in);
    input.num_tokens = lessons.contractTokens.value_or(document()->numTokens());
    const std::string call = lessons.contractCall.value_or(document()->callText()).toStdString();
    contractReport_ = std::make_shared<const ContractReport>(check_contract(call, input));
}

// The lesson's modules are 3 × 2 on six tokens, and c_attn one 768-wide product: milliseconds, so each
// edit of the lines is run again the next time the tab asks.
const TransferResult& DebugState::transferResult() const
{
    const TransferSpec& lines = document()->lessonState().transfer;
    if (!lastTransfer_ || !(*lastTransfer_ == lines)) {
        transferResult_ = run_transfer(lines, kTransferSeed);
        lastTransfer_ = lines;
    }
    return transferResult_;
}

const TransferResult& DebugState::gpt2TransferResult() const
{
    const TransferSpec& lines = document()->lessonState().transfer;
    if (!lastGpt2Transfer_ || !(*lastGpt2Transfer_ == lines)) {
        gpt2TransferResult_ = run_gpt2_transfer(lines, kTransferGpt2Width, kTransferSeed);
        lastGpt2Transfer_ = lines;
    }
    return gpt2TransferResult_;
}

} // namespace attnlab::ui
