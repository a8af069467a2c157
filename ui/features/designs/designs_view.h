#pragma once
// "Wrapper vs integrated": the three designs of the current call drawn to scale, and under them the
// numerical proof that the integrated module is a matched-width wrapper in disguise (the core's
// check_equivalence, which the Session runs off the GUI thread while this tab is the shown one).
#include <QWidget>

class QLabel;

namespace attnlab::ui {

class DesignLayoutWidget;
class DesignsState;

class DesignsView : public QWidget {
    Q_OBJECT
public:
    explicit DesignsView(DesignsState* state, QWidget* parent = nullptr);
    DesignLayoutWidget* layoutWidget() const { return layout_; }
    QLabel* equivalenceLabel() const { return equivalence_; }

private:
    void refresh();
    void showEquivalence();

    DesignsState* state_;
    QLabel* intro_;
    DesignLayoutWidget* layout_;
    QLabel* equivalence_;
};

} // namespace attnlab::ui
