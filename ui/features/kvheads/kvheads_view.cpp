#include "features/kvheads/kvheads_view.h"

#include "features/kvheads/kv_memory_panel.h"
#include "features/kvheads/kv_step_panel.h"
#include "features/kvheads/kvheads_state.h"
#include "widgets/lesson_target.h"

#include <QGroupBox>
#include <QScrollArea>
#include <QVBoxLayout>

namespace attnlab::ui {

KvHeadsView::KvHeadsView(KvHeadsState* state, QWidget* parent) : QWidget(parent)
{
    memory_ = new KvMemoryPanel(state);
    nameTarget(memory_, QStringLiteral("kv-memory"));
    stepped_ = new KvStepPanel(state);
    nameTarget(stepped_, QStringLiteral("kv-stepped"));
    auto* memoryBox = new QGroupBox(tr("Memory: the KV cache per number of key/value heads"));
    (new QVBoxLayout(memoryBox))->addWidget(memory_);
    auto* steppedBox = new QGroupBox(tr("The cache, stepped"));
    (new QVBoxLayout(steppedBox))->addWidget(stepped_);
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(memoryBox, 1);
    layout->addWidget(steppedBox);
    // Scrolls rather than widening the window: a projector's type makes both sections taller than the page.
    auto* area = new QScrollArea;
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(area);
}

} // namespace attnlab::ui
