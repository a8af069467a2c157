#pragma once
// The book's run and the buggy run as two stage lists side by side, in the golden README's order:
// each row the stage and its shape, the buggy side with its verdict. The first diverging stage is
// marked (▶ and a strong colour) in both; selecting a row in either selects it in both.
#include <QWidget>

class QLabel;
class QListWidget;

namespace attnlab::ui {

class BugLesson;

class StageCompareLists : public QWidget {
    Q_OBJECT
public:
    static constexpr int kFirstDivergenceRole = Qt::UserRole + 1;

    explicit StageCompareLists(BugLesson* lesson, QWidget* parent = nullptr);
    QListWidget* bookList() const { return book_; }
    QListWidget* buggyList() const { return buggy_; }
    int highlightedRow() const; // the row both lists mark as the first divergence; -1 when none

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // As wide as a row's characters and as tall as a few rows, at the list's type.
    static void fitToType(QListWidget* list, int chars);
    void rebuild();
    void select();

    BugLesson* lesson_;
    QLabel* buggyTitle_;
    QListWidget* book_;
    QListWidget* buggy_;
};

} // namespace attnlab::ui
