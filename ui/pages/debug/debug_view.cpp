#include "pages/debug/debug_view.h"

#include "pages/debug/bug_view.h"
#include "pages/debug/contract_view.h"
#include "pages/debug/transfer_view.h"
#include "pages/debug/your_code_view.h"
#include "model/recording_compare.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace attnlab::ui {

DebugView::DebugView(Session* session, QWidget* parent) : QWidget(parent)
{
    contract_ = new ContractView(session);
    bugs_ = new BugView(session);
    transfer_ = new TransferView;
    compare_ = new RecordingCompare(this);
    yourCode_ = new YourCodeView(compare_);
    sections_ = new QTabWidget;
    sections_->setObjectName(QStringLiteral("debug-sections"));
    sections_->setDocumentMode(true);
    sections_->addTab(contract_, tr("The argument contract"));
    sections_->addTab(bugs_, tr("Injected bugs: the first divergence"));
    sections_->addTab(transfer_, tr("Weight transfer"));
    sections_->addTab(yourCode_, tr("Your code"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(sections_);
}

void DebugView::showSection(DebugSection section)
{
    sections_->setCurrentIndex(static_cast<int>(section));
}

} // namespace attnlab::ui
