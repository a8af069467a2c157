#pragma once
// The cache, stepped: a shipped GPT, a prompt, Step (one greedy token) and Reset; the cache drawn per layer growing by
// a column a step, what the step computed with the cache and would have without it, and the text so far.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace attnlab::ui {

class KvHeadsState;
class KvCacheStripWidget;

class KvStepPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvStepPanel(KvHeadsState* state, QWidget* parent = nullptr);
    QComboBox* models() const { return models_; }
    QLineEdit* prompt() const { return prompt_; }
    QPushButton* stepButton() const { return step_; }
    QPushButton* resetButton() const { return reset_; }
    KvCacheStripWidget* strip() const { return strip_; }
    QLabel* computed() const { return computed_; }
    QLabel* text() const { return text_; }

private:
    void refresh();

    KvHeadsState* state_;
    QComboBox* models_;
    QLineEdit* prompt_;
    QPushButton* step_;
    QPushButton* reset_;
    KvCacheStripWidget* strip_;
    QLabel* computed_;
    QLabel* text_;
};

} // namespace attnlab::ui
