#pragma once
// What the core says about the settings, shown inline beside the spin boxes: one card per
// diagnostic, its sentence, and one button per fix the core offers.
#include <QWidget>

class QVBoxLayout;

namespace attnlab::ui {

class Session;

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(Session* session, QWidget* parent = nullptr);

private:
    void rebuild();

    Session* session_;
    QVBoxLayout* cards_;
};

} // namespace attnlab::ui
