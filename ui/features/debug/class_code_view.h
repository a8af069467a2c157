#pragma once
// Debugging > The class's code: a folder of the students' recordings tallied by where each first diverges
// (lessons/class_code.h, what `attention-lab-cli compare DIR --summary` prints), anonymised unless the teacher
// ticks "Show file names"; activating a recording opens it in Your code, at its first-divergence card. The
// folder is not part of a session file: the tally is read again from the folder whenever it is opened.
#include "lessons/class_code.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace attnlab::ui {

class ClassCodeView : public QWidget {
    Q_OBJECT
public:
    explicit ClassCodeView(QWidget* parent = nullptr);

    // Compares every FOLDER/*.safetensors (sorted by name, not recursive). A refused folder (none, more than
    // 500, not a folder) keeps the previous tally and says why inline; false then.
    bool openFolder(const QString& folder);
    void chooseFolder(); // the folder dialog, then openFolder

    QString folder() const { return folder_; }
    bool hasResult() const { return result_.has_value(); }
    const ClassCode& result() const { return *result_; }
    QTreeWidget* tally() const { return tally_; }
    QLabel* message() const { return message_; }
    QCheckBox* showNames() const { return names_; }
    // What a recording is called on screen: "recording N", or its file name with Show file names.
    QString recordingLabel(std::size_t index) const;

Q_SIGNALS:
    void recordingChosen(const QString& path); // a readable recording activated: open it in Your code

private:
    void fill();
    void addGroup(const QString& text, const std::vector<std::size_t>& recordings);
    void activate(QTreeWidgetItem* item);

    QLabel* title_;
    QLabel* message_;
    QPushButton* open_;
    QCheckBox* names_;
    QTreeWidget* tally_;
    QString folder_;
    std::optional<ClassCode> result_;
};

} // namespace attnlab::ui
