#pragma once
// The constructor settings and the input size as spin boxes, edited live (no Apply button), with
// head_dim worked out right under num_heads and offending boxes outlined where the eye already is.
#include "features/session.h"

#include "call/slot.h"

#include <QWidget>

#include <map>
#include <string>

class QAbstractSpinBox;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace attnlab::ui {

class ConfigPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConfigPanel(Session* session, QWidget* parent = nullptr);
    QAbstractSpinBox* spinBox(const std::string& slot) const; // "d_in", ..., "batch", "num_tokens"
    QLabel* headDimLabel() const { return headDim_; }

private:
    void refresh();
    void addSpin(Slot slot, const QString& tip, int min, int max);

    Session* session_;
    QComboBox* preset_;
    QComboBox* module_;
    std::map<std::string, QAbstractSpinBox*> spins_;
    QCheckBox* bias_;
    QCheckBox* training_;
    QSpinBox* seed_;
    QSpinBox* dropoutSeed_;
    QLabel* headDim_;
    QLabel* lastValid_;
    QFormLayout* form_;
};

} // namespace attnlab::ui
