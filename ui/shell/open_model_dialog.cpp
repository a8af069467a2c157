#include "shell/open_model_dialog.h"
#include "widgets/lesson_target.h"

#include "forward/experiment.h"
#include "forward/experiment_check.h"
#include "model/model_job.h"
#include "features/session.h"
#include "tensor/error.h"
#include "widgets/code_font.h"
#include "model/trace_state.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnlab::ui {

OpenModelDialog::OpenModelDialog(Session* session, const QString& path, QWidget* parent)
    : QDialog(parent), session_(session)
{
    nameTarget(this, QStringLiteral("open-model-dialog"));
    setWindowTitle(tr("Open Model"));
    path_ = new QLineEdit;
    nameTarget(path_, QStringLiteral("open-model-path"));
    path_->setAccessibleName(tr("Checkpoint"));
    path_->setPlaceholderText(tr("A folder with model.safetensors and config.json, or a .safetensors file"));
    auto* file = new QPushButton(tr("&File…"));
    auto* folder = new QPushButton(tr("F&older…"));
    summary_ = new QLabel;
    nameTarget(summary_, QStringLiteral("open-model-summary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    memory_ = new QLabel;
    nameTarget(memory_, QStringLiteral("open-model-memory"));
    memory_->setWordWrap(true);
    code_ = new QPlainTextEdit;
    nameTarget(code_, QStringLiteral("open-model-code"));
    code_->setAccessibleName(tr("The weight transfer as code"));
    code_->setReadOnly(true);
    code_->setLineWrapMode(QPlainTextEdit::NoWrap);
    useCodeFont(code_, 0.9);
    error_ = new QLabel;
    nameTarget(error_, QStringLiteral("open-model-error"));
    error_->setWordWrap(true);
    error_->setForegroundRole(QPalette::BrightText);
    error_->setAutoFillBackground(false);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);

    auto* row = new QHBoxLayout;
    row->addWidget(path_, 1);
    row->addWidget(file);
    row->addWidget(folder);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(summary_);
    layout->addWidget(memory_);
    layout->addWidget(new QLabel(tr("Read as the book's GPTModel, the chapter 5 weight transfer:")));
    layout->addWidget(code_, 1);
    layout->addWidget(error_);
    layout->addWidget(buttons_);
    resize(760, 520);

    connect(path_, &QLineEdit::editingFinished, this, [this] { setPath(path_->text()); });
    connect(file, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Model"), path_->text(),
                                                       tr("safetensors (*.safetensors);;All files (*)"));
        if (!p.isEmpty())
            setPath(p);
    });
    connect(folder, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getExistingDirectory(this, tr("Open Model"), path_->text());
        if (!p.isEmpty())
            setPath(p);
    });
    connect(buttons_, &QDialogButtonBox::accepted, this, &OpenModelDialog::openChosen);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(session_->trace()->modelJob(), &ModelJob::opened, this, [this] {
        if (buttons_->isEnabled() == false)
            accept();
    });
    connect(session_->trace()->modelJob(), &ModelJob::openFailed, this, [this](const QString& sentence) {
        buttons_->setEnabled(true);
        showError(sentence);
    });
    setPath(path);
}

void OpenModelDialog::setPath(const QString& path)
{
    if (path_->text() != path)
        path_->setText(path);
    plan_.reset();
    summary_->clear();
    memory_->clear();
    code_->clear();
    if (path.isEmpty()) {
        showError({});
        openButton()->setEnabled(false);
        return;
    }
    try {
        plan_ = plan_gpt2_checkpoint(path.toStdString());
    } catch (const Error& e) {
        showError(QString::fromUtf8(e.what()));
        openButton()->setEnabled(false);
        return;
    }
    showError({});
    summary_->setText(QString::fromStdString(describe_gpt2_plan(*plan_)));
    const std::uint64_t need = gpt2_load_bytes(*plan_), machine = machine_memory_bytes();
    memory_->setText(
        tr("Opening it takes about %1 of memory; this machine has %2.")
            .arg(QString::fromStdString(format_bytes(need)), QString::fromStdString(format_bytes(machine))));
    QStringList lines;
    for (const std::string& line : gpt2_mapping_code(*plan_))
        lines << QString::fromStdString(line);
    code_->setPlainText(lines.join(QLatin1Char('\n')));
    openButton()->setEnabled(true);
}

QString OpenModelDialog::errorText() const
{
    return error_->text();
}

QString OpenModelDialog::summaryText() const
{
    return summary_->text() + QLatin1Char(' ') + memory_->text();
}

QString OpenModelDialog::codeText() const
{
    return code_->toPlainText();
}

QPushButton* OpenModelDialog::openButton() const
{
    return buttons_->button(QDialogButtonBox::Open);
}

void OpenModelDialog::openChosen()
{
    if (!plan_)
        return;
    showError(tr("Opening %1…").arg(QString::fromStdString(plan_->name)));
    buttons_->setEnabled(false); // until it is in, or said why not
    session_->trace()->openModel(*plan_);
}

void OpenModelDialog::showError(const QString& sentence)
{
    error_->setText(sentence);
    error_->setVisible(!sentence.isEmpty());
}

} // namespace attnlab::ui
