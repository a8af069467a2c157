#pragma once
// File > Load Weights…, after the file is chosen: what the file says about its module (layout, d_in,
// d_out, qkv_bias, layers, context length) and the one thing it cannot say -- num_heads -- as a choice
// among the divisors of d_out. A file that cannot be used is explained inline and Load stays disabled.
#include "model/weights_source.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QPushButton;

namespace attnlab::ui {

class LoadWeightsDialog : public QDialog {
    Q_OBJECT
public:
    LoadWeightsDialog(const QString& path, const ExperimentSpec& current, QWidget* parent = nullptr);

    bool usable() const { return info_.has_value(); }
    QString errorText() const; // the inline sentence; empty when the file is usable
    WeightsChoice choice() const;
    ExperimentSpec chosenSpec() const; // only when usable()

    QComboBox* moduleBox() const { return module_; }
    QComboBox* layerBox() const { return layer_; }
    QComboBox* headsBox() const { return heads_; }
    QPushButton* loadButton() const;

private:
    void build();
    void fill();
    void refreshHeads(); // the module decides whether num_heads is asked, read from the file, or absent

    QString path_;
    ExperimentSpec current_;
    std::optional<WeightsInfo> info_;
    QLabel* file_;
    QLabel* layout_;
    QLabel* shapes_;
    QLabel* context_;
    QComboBox* module_;
    QLabel* layerLabel_;
    QComboBox* layer_;
    QComboBox* heads_;
    QLabel* headsNote_;
    QLabel* error_;
    QDialogButtonBox* buttons_;
};

} // namespace attnlab::ui
