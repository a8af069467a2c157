#pragma once
// "Wrapper vs integrated": the three designs of the current call drawn to scale, and under them the
// numerical proof that the integrated module is a matched-width wrapper in disguise (the core's
// check_equivalence, run off the GUI thread by EquivalenceJob while this tab is visible).
#include <QWidget>

class QLabel;

namespace attnlab::ui {

class DesignLayoutWidget;
class EquivalenceJob;
class Session;

class DesignsView : public QWidget {
    Q_OBJECT
public:
    explicit DesignsView(Session* session, QWidget* parent = nullptr);
    DesignLayoutWidget* layoutWidget() const { return layout_; }
    QLabel* equivalenceLabel() const { return equivalence_; }
    EquivalenceJob* equivalenceJob() const { return job_; }
    bool computing() const; // an equivalence check for the shown settings is still running

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();
    void requestEquivalence();
    void showEquivalence();

    Session* session_;
    QLabel* intro_;
    DesignLayoutWidget* layout_;
    QLabel* equivalence_;
    EquivalenceJob* job_;
    bool stale_ = true; // settings changed while hidden: check again when shown
};

} // namespace attnlab::ui
