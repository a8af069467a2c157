#pragma once
// File > Open Model…: a GPT-2 checkpoint (a folder with model.safetensors and config.json, or the file) or the
// book's chapter 5 GPTModel. Before anything is read it shows what the file holds (describe_gpt2_plan), the
// weight transfer it amounts to as the code lines of the book's load_weights_into_gpt, and the memory
// opening it takes; Open loads it off the GUI thread and closes once it is in. A file that cannot be opened
// is said in one sentence inline, and the session keeps what it had.
#include "gpt/gpt2_checkpoint.h"

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace attnlab::ui {

class Session;

class OpenModelDialog : public QDialog {
    Q_OBJECT
public:
    explicit OpenModelDialog(Session* session, const QString& path = {}, QWidget* parent = nullptr);

    void setPath(const QString& path); // reads the header and config.json, nothing more
    bool usable() const { return plan_.has_value(); }
    QString errorText() const;   // the inline sentence; empty when the file can be opened
    QString summaryText() const; // describe_gpt2_plan and the memory sentence
    QString codeText() const;    // the mapping, one code line a line
    QPushButton* openButton() const;
    void openChosen(); // what Open does

private:
    void showError(const QString& sentence);

    Session* session_;
    std::optional<Gpt2Plan> plan_;
    QLineEdit* path_;
    QLabel* summary_;
    QLabel* memory_;
    QPlainTextEdit* code_;
    QLabel* error_;
    QDialogButtonBox* buttons_;
};

} // namespace attnlab::ui
