#include "features/debug/debug_view.h"
#include "widgets/lesson_target.h"

#include "features/debug/debug_state.h"
#include "features/debug/bug_view.h"
#include "features/debug/class_code_view.h"
#include "features/debug/contract_view.h"
#include "features/debug/transfer_view.h"
#include "features/debug/your_code_view.h"
#include "features/debug/your_code_state.h"
#include "features/designs/designs_state.h"
#include "features/heatmaps/heatmaps_state.h"
#include "features/overview/overview_state.h"
#include "features/stepper/stepper_state.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/view_model.h"

#include "widgets/tab_text_fit.h"

#include <QTabWidget>

#include <algorithm>
#include <QVBoxLayout>

namespace attnlab::ui {

DebugView::DebugView(DebugState* state, QWidget* parent) : QWidget(parent)
{
    contract_ = new ContractView(state);
    bugs_ = new BugView(state);
    transfer_ = new TransferView(state);
    yourCode_ = new YourCodeView(state->yourCode()->comparison());
    classCode_ = new ClassCodeView;
    sections_ = new QTabWidget;
    nameTarget(sections_, QStringLiteral("debug-sections"));
    sections_->setDocumentMode(true);
    sections_->addTab(contract_, tr("The argument contract"));
    sections_->addTab(bugs_, tr("Injected bugs: the first divergence"));
    sections_->addTab(transfer_, tr("Weight transfer"));
    sections_->addTab(yourCode_, tr("Your code"));
    sections_->addTab(classCode_, tr("The class's code"));
    // A tab's tooltip is its accessible description (Ctrl+Tab moves between the sections).
    sections_->setTabToolTip(0, tr("Which value lands in which slot of the constructor, and what goes wrong when two "
                                   "widths trade places."));
    sections_->setTabToolTip(1, tr("One line of the module changed: find the first stage where the forward differs."));
    sections_->setTabToolTip(2, tr("Copy a SelfAttention_v2's weights into a SelfAttention_v1, with and without .T."));
    sections_->setTabToolTip(3, tr("Compare a recording of your own module with the book's, stage by stage."));
    sections_->setTabToolTip(4, tr("Tally a folder of the students' recordings by where each first diverges."));
    fitTabTexts(sections_, {{tr("The argument contract"), tr("Argument contract"), tr("Contract")},
                            {tr("Injected bugs: the first divergence"), tr("Injected bugs"), tr("Bugs")},
                            {tr("Weight transfer"), tr("Weight transfer"), tr("Transfer")},
                            {tr("Your code")},
                            {tr("The class's code"), tr("Class's code"), tr("Class")}});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(sections_);
    // The open section is the session's (lesson state): follow it, and tell it when the student switches.
    showSection(state->view()->debugSection());
    connect(sections_, &QTabWidget::currentChanged, state,
            [state](int index) { state->view()->setDebugSection(static_cast<DebugSection>(index)); });
    connect(state, &DebugState::changed, this, [this, state](ChangeFlags flags) {
        if (flags & ChangeFlag::View)
            showSection(state->view()->debugSection());
    });
}

void DebugView::showSection(DebugSection section)
{
    sections_->setCurrentIndex(static_cast<int>(section));
    updateGeometry(); // another section, another height for the page (heightForWidth)
}

int DebugView::heightForWidth(int width) const
{
    const QWidget* page = sections_->currentWidget();
    if (!page || page->width() <= 0) // not laid out yet: the tab widget's own answer
        return QWidget::heightForWidth(width);
    const int inner = page->width() + width - this->width();
    const int own = page->hasHeightForWidth() ? page->heightForWidth(inner) : page->sizeHint().height();
    const int around = height() - page->height(); // the tab bar, frames and margins
    return std::max({minimumSizeHint().height(), own + around, page->minimumSizeHint().height() + around});
}

} // namespace attnlab::ui
