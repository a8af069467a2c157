#pragma once
// What a sweep trains, as the student sets it: the task, the width (emb_dim = d_out), layers, the
// num_heads to compare (empty: every divisor), the key/value heads to compare at each (num_kv_groups; empty: as
// many as the heads, the book's MultiHeadAttention), seeds, steps, batch and learning rate. Choosing a task
// puts in its defaults. The form only reads its fields; core refuses what cannot train.
#include "features/tradeoffs/sweep_results.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace attnlab::ui {

class SweepForm : public QWidget {
    Q_OBJECT
public:
    explicit SweepForm(QWidget* parent = nullptr);
    // nullopt and *error set to one sentence when a field is not a number or a list of head counts.
    std::optional<SweepSettings> settings(QString* error) const;
    void setSettings(const SweepSettings& settings);

    QComboBox* task() const { return task_; }
    QSpinBox* emb() const { return emb_; }
    QSpinBox* layers() const { return layers_; }
    QLineEdit* heads() const { return heads_; }
    QLineEdit* kvGroups() const { return kvGroups_; }
    QSpinBox* seeds() const { return seeds_; }
    QSpinBox* steps() const { return steps_; }
    QSpinBox* batch() const { return batch_; }
    QLineEdit* lr() const { return lr_; }

private:
    QComboBox* task_;
    QSpinBox *emb_, *layers_, *seeds_, *steps_, *batch_;
    QLineEdit *heads_, *kvGroups_, *lr_;
    SweepSettings base_; // the task's sizes and weight decay, which the form does not edit
};

} // namespace attnlab::ui
