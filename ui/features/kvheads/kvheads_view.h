#pragma once
// The Key/value heads tab: what the KV cache costs for a published config or the current call, per number of
// key/value heads (Memory), and the cache of a shipped GPT filled one token at a time (The cache, stepped).
#include <QWidget>

namespace attnlab::ui {

class KvHeadsState;
class KvMemoryPanel;
class KvStepPanel;

class KvHeadsView : public QWidget {
    Q_OBJECT
public:
    explicit KvHeadsView(KvHeadsState* state, QWidget* parent = nullptr);
    KvMemoryPanel* memory() const { return memory_; }
    KvStepPanel* stepped() const { return stepped_; }

private:
    KvMemoryPanel* memory_;
    KvStepPanel* stepped_;
};

} // namespace attnlab::ui
