#pragma once
// The "weight transfer" section of the Debugging tab: the book's three assignments that copy a
// SelfAttention_v2 into a SelfAttention_v1, each with "include this line" and "with .T" boxes, the
// widths, and the core's verdict as a coloured badge (match / mismatch with the largest difference /
// error with PyTorch's message). Below, the GPT-2 checkpoint variant -- split the fused c_attn into
// three and transpose each -- with the same boxes applied and its own verdict.
#include "lessons/transfer.h"
#include "model/lesson_state.h"

#include <QWidget>

#include <array>

class QCheckBox;
class QLabel;
class QSpinBox;

namespace attnlab::ui {

class DebugState;

class TransferView : public QWidget {
    Q_OBJECT
public:
    static constexpr std::int64_t kGpt2Width = kTransferGpt2Width;
    static constexpr std::uint64_t kSeed = kTransferSeed;

    explicit TransferView(DebugState* state, QWidget* parent = nullptr);
    TransferSpec spec() const; // the session's lines (lesson_state.h), which the boxes show
    void setLine(TransferRole role, bool written, bool transpose);
    void setWidths(int d_in, int d_out);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();
    void showGpt2Result();
    QWidget* gpt2Box();

    QSpinBox* dIn_;
    QSpinBox* dOut_;
    std::array<QCheckBox*, 3> include_{};
    std::array<QCheckBox*, 3> transpose_{};
    std::array<QLabel*, 3> code_{};
    QLabel* badge_;
    QLabel* message_;
    QLabel* gpt2Code_;
    QLabel* gpt2Badge_;
    QLabel* gpt2Message_;
    DebugState* state_;
    TransferSpec shown_; // what result_ was computed for
};

// A verdict as a coloured pill: green match, amber mismatch (with the largest difference), red error.
void showTransferBadge(QLabel* badge, const TransferResult& result);

} // namespace attnlab::ui
