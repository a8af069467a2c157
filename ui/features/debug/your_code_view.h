#pragma once
// Debugging > Your code: a learner's recorded module beside the book's stages. Left, their forward's lines
// with what each assigned (shape, and the book's stage it holds); right, the book's stages with the line
// that reached each; the first divergence highlighted in both, and below it how it differs, the nearest
// stage, and the lab's bug and lesson when one of its injected bugs does exactly this.
#include <QWidget>

class QLabel;
class QTableWidget;

namespace attnlab::ui {

class RecordingCompare;

class YourCodeView : public QWidget {
    Q_OBJECT
public:
    explicit YourCodeView(RecordingCompare* model, QWidget* parent = nullptr);
    RecordingCompare* model() const { return model_; }
    QTableWidget* lines() const { return lines_; }
    QTableWidget* stages() const { return stages_; }
    QLabel* summary() const { return summary_; }
    QLabel* message() const { return message_; }
    // The learner's line shown highlighted (the first divergence), -1 when none.
    int highlightedLine() const { return highlighted_; }

private:
    void refresh();
    void fillLines();
    void fillStages();
    void fillSummary();

    RecordingCompare* model_;
    QLabel* title_;
    QLabel* message_;
    QTableWidget* lines_;
    QTableWidget* stages_;
    QLabel* summary_;
    int highlighted_ = -1;
};

} // namespace attnlab::ui
