#pragma once
// The "argument contract" section of the Debugging tab: paste any constructor call (it starts as the
// session's), see each value named by the slot it fills, and the core's findings about the usual
// confusions, each with its sentence and a one-click "use the corrected call" that sends the
// rewritten call to the session.
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace attnlab {
struct ContractFinding;
struct ContractReport;
} // namespace attnlab

namespace attnlab::ui {

class DebugState;
class SlotChips;

class ContractView : public QWidget {
    Q_OBJECT
public:
    explicit ContractView(DebugState* state, QWidget* parent = nullptr);
    ~ContractView() override;
    QLineEdit* callEdit() const { return call_; }
    SlotChips* chips() const { return chips_; }
    const ContractReport& report() const; // the Session's reading, as shown

private:
    void followSession();
    void refresh();
    QWidget* findingCard(const ContractFinding& finding);
    QWidget* noteCard(const QString& title, const QString& text, const QColor& accent, const QColor& fill,
                      const QString& name);
    void clearCards();

    DebugState* state_;
    QLineEdit* call_;
    QPushButton* reset_;
    QSpinBox* width_;
    QSpinBox* tokens_;
    SlotChips* chips_;
    QVBoxLayout* cards_;
};

} // namespace attnlab::ui
