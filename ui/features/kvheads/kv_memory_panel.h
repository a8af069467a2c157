#pragma once
// The Memory section: which shape (a published config or the current call), its layers, dtype and context length;
// the chart of KV-cache bytes against context length and the table of a row per key/value head count. It shows
// KvHeadsState's KvMemory and sends the choices back to it.
#include <QWidget>

class QBoxLayout;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace attnlab::ui {

class KvHeadsState;
class KvMemoryChart;

class KvMemoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvMemoryPanel(KvHeadsState* state, QWidget* parent = nullptr);
    QComboBox* configs() const { return configs_; } // "the current call" first, then published_configs()
    QComboBox* dtypes() const { return dtypes_; }
    QSpinBox* layers() const { return layers_; }
    QSpinBox* context() const { return context_; }
    KvMemoryChart* chart() const { return chart_; }
    QTableWidget* table() const { return table_; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void refresh();
    void fillTable();
    void fitTable();
    void placeTable();

    KvHeadsState* state_;
    QComboBox* configs_;
    QComboBox* dtypes_;
    QSpinBox* layers_;
    QSpinBox* context_;
    QLabel* note_;
    QBoxLayout* body_;
    KvMemoryChart* chart_;
    QTableWidget* table_;
};

} // namespace attnlab::ui
