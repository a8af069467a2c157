#pragma once
// The "Debugging" tab: three lessons on the habits that catch silent mistakes -- read the call slot
// by slot (argument contract), find the first stage where a buggy forward parts from the book's
// (injected bugs), and check a weight copy by comparing outputs (weight transfer); then the same first
// divergence in the learner's own recorded module (your code), and in every student's at once (the class's code).
#include "model/lesson_state.h"

#include <QWidget>

class QTabWidget;

namespace attnlab::ui {

class BugView;
class ClassCodeView;
class ContractView;
class DebugState;
class TransferView;
class YourCodeView;

class DebugView : public QWidget {
    Q_OBJECT
public:
    explicit DebugView(DebugState* state, QWidget* parent = nullptr);
    ContractView* contractView() const { return contract_; }
    BugView* bugView() const { return bugs_; }
    TransferView* transferView() const { return transfer_; }
    YourCodeView* yourCodeView() const { return yourCode_; }
    ClassCodeView* classCodeView() const { return classCode_; }
    QTabWidget* sections() const { return sections_; }
    void showSection(DebugSection section);
    // The shown section's height at `width`, not the tallest section's (a tab widget asks every page): the
    // page's scroll area sizes the page by it, and the injected bugs' card went under a projector's fold.
    int heightForWidth(int width) const override;

private:
    ContractView* contract_;
    BugView* bugs_;
    TransferView* transfer_;
    YourCodeView* yourCode_;
    ClassCodeView* classCode_;
    QTabWidget* sections_;
};

} // namespace attnlab::ui
