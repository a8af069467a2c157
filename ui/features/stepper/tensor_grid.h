#pragma once
// The current stage's numbers: a 2-D slice (one sequence of the batch, one head) as a grid when it is
// small enough to read, otherwise a 12 × 12 window of it (the top-left corner, or around the followed
// number when there is one) plus min / max / mean of the whole slice.
#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

class QLabel;
class QSpinBox;
class QTableWidget;

namespace attnlab::ui {

class StepperState;

// A number as the grid prints it: four decimals, as the book prints its tensors, so a printed value can be
// found in the grid (one decimal from 1,000 up); what the follow panel says of a cell too.
QString valuesGridText(float value);

class TensorGrid : public QWidget {
    Q_OBJECT
public:
    explicit TensorGrid(StepperState* state, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    QLabel* summary() const { return summary_; }

    static constexpr int kFullLimit = 40; // rows and columns shown in full up to this
    static constexpr int kCorner = 12;    // beyond it, a window this size
    // The first shown row and column of the slice (0, 0 unless a followed number lies beyond the corner).
    std::int64_t firstRow() const { return rowStart_; }
    std::int64_t firstColumn() const { return colStart_; }

private:
    void refresh();
    void showFollowed(); // marks the followed element and its sources among the shown cells
    std::vector<std::int64_t> indexOfCell(int row, int column) const;
    // The followed number's (else its first source's) row and column in this stage's slice, if it is in it.
    std::optional<std::pair<std::int64_t, std::int64_t>> followedCell() const;

    StepperState* state_;
    // How the shown cells map to the stage's index: the fixed batch and head, the two free axes.
    std::vector<std::int64_t> fixed_;
    std::vector<std::size_t> free_;
    std::int64_t rows_ = 0, cols_ = 0;         // the slice's size
    std::int64_t rowStart_ = 0, colStart_ = 0; // the shown window's origin in it
    bool filling_ = false;
    QSpinBox* batch_;
    QSpinBox* head_;
    QLabel* summary_;
    QTableWidget* table_;
};

} // namespace attnlab::ui
