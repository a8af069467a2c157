#include "widgets/code_font.h"
#include "widgets/lesson_target.h"
#include "features/debug/compare_actions.h"

#include "features/debug/class_code_view.h"
#include "features/debug/recording_compare.h"
#include "features/session.h"
#include "shell/exporters.h"
#include "features/debug/debug_state.h"
#include "features/debug/your_code_state.h"
#include "model/view_model.h"

#include <QAction>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {
const QString kRecorderResource = QStringLiteral(":/pytorch/attention_lab_probe.py");
}

bool saveRecorderCopy(const QString& path, QString* error)
{
    QFile recorder(kRecorderResource);
    if (!recorder.open(QIODevice::ReadOnly)) { // compiled in: only a broken build lacks it
        if (error)
            *error = QObject::tr("Could not write %1: the recorder is missing from this build.").arg(path);
        return false;
    }
    return writeFileAtomically(path, recorder.readAll(), error, QObject::tr("the recorder"));
}

void addCompareOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("compare"),
         QStringLiteral("Open a recording of your own module (attention_lab_probe.py) in Debugging > Your code, as "
                        "File > Compare With My Code does."),
         QStringLiteral("FILE")},
        {QStringLiteral("compare-class"),
         QStringLiteral("Tally a folder of recordings in Debugging > The class's code, as File > The Class's Code… "
                        "does."),
         QStringLiteral("DIR")},
    });
}

QString installedRecorderPath()
{
    const QString path = QDir(QCoreApplication::applicationDirPath())
                             .absoluteFilePath(QStringLiteral("../share/attention-lab/attention_lab_probe.py"));
    return QFileInfo::exists(path) ? QDir::cleanPath(path) : QString();
}

QString recorderSnippet()
{
    return QStringLiteral("from attention_lab_probe import record\n"
                          "rec = record(my_module, x)        # runs my_module(x) once, eval mode, no_grad\n"
                          "rec.save(\"mine.safetensors\")");
}

CompareActions::CompareActions(QMainWindow* window, Session* session, QObject* parent)
    : QObject(parent), window_(window), session_(session)
{
}

void CompareActions::populateFileMenu(QMenu* file)
{
    auto* open = file->addAction(tr("Compare With My &Code…"), this, &CompareActions::chooseFile);
    open->setToolTip(tr("Open a recording of your own attention module and find the first stage where it leaves "
                        "the book's forward."));
    auto* classCode = file->addAction(tr("The C&lass's Code…"), this, [this] {
        showClassCode();
        if (classCode_)
            classCode_->chooseFolder();
    });
    classCode->setToolTip(tr("Open a folder of the students' recordings and tally where each first diverges."));
}

void CompareActions::setClassCodeView(ClassCodeView* view)
{
    classCode_ = view;
    connect(view, &ClassCodeView::recordingChosen, this, [this](const QString& path) { openRecording(path); });
}

bool CompareActions::openClassFolder(const QString& folder)
{
    showClassCode();
    return classCode_ && classCode_->openFolder(folder);
}

void CompareActions::showClassCode()
{
    session_->view()->setTab(ViewMode::Debug);
    session_->view()->setDebugSection(DebugSection::ClassCode);
}

void CompareActions::populateHelpMenu(QMenu* help)
{
    auto* record = help->addAction(tr("&Record Your Module…"), this, &CompareActions::showRecorderHelp);
    record->setToolTip(tr("The three lines that record your own module for File > Compare With My Code."));
}

void CompareActions::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(window_, tr("Compare With My Code"), lastDir_,
                                                      tr("Recordings (*.safetensors);;All files (*)"));
    if (path.isEmpty())
        return;
    lastDir_ = QFileInfo(path).absolutePath();
    openRecording(path);
}

bool CompareActions::openRecording(const QString& path, bool interactive)
{
    RecordingCompare* model = session_->feature<DebugState>()->yourCode()->comparison();
    auto outcome = model->open(path);
    if (outcome == RecordingCompare::Outcome::NeedsNumHeads && interactive) {
        // The weights cannot say num_heads (splitting d_out is a reshape): offer every divisor, as Load Weights does.
        QStringList choices;
        for (std::int64_t h : divisors(model->askedDOut()))
            choices << QString::number(h);
        bool ok = false;
        const QString h = QInputDialog::getItem(window_, tr("num_heads"),
                                                tr("Your recording does not store num_heads, and the weights cannot "
                                                   "say it. How many heads does your module split d_out=%1 into?")
                                                    .arg(model->askedDOut()),
                                                choices, 0, false, &ok);
        outcome = ok ? model->open(path, h.toLongLong()) : RecordingCompare::Outcome::Refused;
    }
    showSection();
    if (outcome != RecordingCompare::Outcome::Compared) {
        if (interactive)
            Q_EMIT message(model->error());
        return false;
    }
    if (interactive) // at start-up the status bar is the computation's
        Q_EMIT message(tr("Compared %1 with %3 %2.")
                           .arg(QFileInfo(path).fileName(), QString::fromStdString(model->result().module),
                                QString::fromStdString(model->result().owner)));
    return true;
}

void CompareActions::showSection()
{
    session_->view()->setTab(ViewMode::Debug);
    session_->view()->setDebugSection(DebugSection::YourCode);
}

void CompareActions::showRecorderHelp()
{
    QDialog dialog(window_);
    dialog.setWindowTitle(tr("Record Your Module"));
    auto* intro = new QLabel(tr("In your notebook, next to your attention class, with <code>x</code> the input you "
                                "give it (PyTorch 1.13 or 2.x, nothing else needed):"));
    intro->setWordWrap(true);
    auto* code = new QPlainTextEdit(recorderSnippet());
    nameTarget(code, QStringLiteral("recorder-snippet"));
    code->setReadOnly(true);
    code->setFont(codeFont());
    code->setFixedHeight(code->fontMetrics().lineSpacing() * 5);
    const QString installed = installedRecorderPath();
    auto* where = new QLabel(installed.isEmpty()
                                 ? tr("The recorder, <code>attention_lab_probe.py</code>, is not installed beside this "
                                      "program: save it next to your notebook with the button below.")
                                 : tr("The recorder is installed at <code>%1</code>: copy it next to your notebook, or "
                                      "save a copy with the button below.")
                                       .arg(installed.toHtmlEscaped()));
    nameTarget(where, QStringLiteral("recorder-location"));
    where->setWordWrap(true);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* then = new QLabel(tr("Then open <code>mine.safetensors</code> with <b>File &gt; Compare With My Code…</b>."));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* save = buttons->addButton(tr("Save Recorder As…"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(save, &QPushButton::clicked, &dialog, [this, &dialog] {
        const QString to = QFileDialog::getSaveFileName(&dialog, tr("Save Recorder As"),
                                                        QStringLiteral("attention_lab_probe.py"), tr("Python (*.py)"));
        if (to.isEmpty())
            return;
        QString error;
        Q_EMIT message(saveRecorderCopy(to, &error) ? tr("Saved the recorder as %1.").arg(to) : error);
    });
    auto* layout = new QVBoxLayout(&dialog);
    for (QWidget* w : {static_cast<QWidget*>(intro), static_cast<QWidget*>(code), static_cast<QWidget*>(where),
                       static_cast<QWidget*>(then), static_cast<QWidget*>(buttons)})
        layout->addWidget(w);
    dialog.resize(640, dialog.sizeHint().height());
    dialog.exec();
}

} // namespace attnlab::ui
