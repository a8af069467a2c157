#include "shell/file_actions.h"

#include "features/session_state.h"
#include "model/undo_commands.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QUndoStack>

namespace attnlab::ui {

namespace {

const QString kFilter = QObject::tr("Attention Lab sessions (*.attnlab.json);;JSON files (*.json)");

} // namespace

FileActions::FileActions(QMainWindow* window, Session* session, SettingsHistory* history, QObject* parent)
    : QObject(parent), window_(window), session_(session), history_(history)
{
    connect(history_->stack(), &QUndoStack::cleanChanged, this, [this] { updateTitle(); });
}

void FileActions::populateMenu(QMenu* file)
{
    auto* open = file->addAction(tr("&Open Session…"), this, &FileActions::open);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Open a saved session: its settings, stage, head and view."));
    auto* save = file->addAction(tr("&Save Session"), this, &FileActions::save);
    save->setShortcut(QKeySequence::Save);
    save->setToolTip(tr("Save the settings, stage, head and view to the current session file."));
    auto* saveAs = file->addAction(tr("Save Session &As…"), this, &FileActions::saveAs);
    saveAs->setShortcut(QKeySequence::SaveAs);
    saveAs->setToolTip(tr("Save the whole state to a new session file."));
    recent_ = file->addMenu(tr("Open &Recent"));
    recent_->menuAction()->setToolTip(tr("Sessions opened or saved lately."));
    connect(recent_, &QMenu::aboutToShow, this, &FileActions::fillRecentMenu);
}

bool FileActions::openFile(const QString& path, QString* error)
{
    const auto state = loadSessionFile(path, sessionFeatures(), error);
    if (!state)
        return false;
    applyState(*session_, *state);
    history_->clear();
    path_ = QFileInfo(path).absoluteFilePath();
    addRecent(path_);
    updateTitle();
    Q_EMIT opened();
    return true;
}

bool FileActions::saveFile(const QString& path, QString* error)
{
    if (!saveSessionFile(path, captureState(*session_), sessionFeatures(), error))
        return false;
    path_ = QFileInfo(path).absoluteFilePath();
    history_->stack()->setClean();
    addRecent(path_);
    updateTitle();
    return true;
}

QStringList FileActions::recentFiles()
{
    QSettings settings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab"));
    return settings.value(QStringLiteral("recentFiles")).toStringList();
}

void FileActions::open()
{
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open Session"), QFileInfo(path_).path(), kFilter);
    if (path.isEmpty())
        return;
    QString error;
    if (!openFile(path, &error))
        return refuse(error);
    Q_EMIT message(tr("Opened %1.").arg(QFileInfo(path).fileName()));
}

void FileActions::save()
{
    if (path_.isEmpty())
        return saveAs();
    QString error;
    if (!saveFile(path_, &error))
        return refuse(error);
    Q_EMIT message(tr("Saved %1.").arg(QFileInfo(path_).fileName()));
}

void FileActions::saveAs()
{
    QFileDialog dialog(window_, tr("Save Session As"), path_.isEmpty() ? QString() : path_, kFilter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(QStringLiteral("attnlab.json"));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    QString path = dialog.selectedFiles().front();
    if (!path.endsWith(QLatin1String(".json")))
        path += QLatin1String(kSessionFileSuffix);
    QString error;
    if (!saveFile(path, &error))
        return refuse(error);
    Q_EMIT message(tr("Saved %1.").arg(QFileInfo(path).fileName()));
}

void FileActions::addRecent(const QString& path)
{
    QSettings settings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab"));
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
}

void FileActions::fillRecentMenu()
{
    recent_->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        auto* a = recent_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            QString error;
            if (!openFile(path, &error))
                refuse(error);
        });
    }
    if (files.isEmpty())
        recent_->addAction(tr("(none yet)"))->setEnabled(false);
}

void FileActions::updateTitle()
{
    const QString name = path_.isEmpty() ? tr("Untitled") : QFileInfo(path_).fileName();
    window_->setWindowTitle(tr("%1[*] — Attention Lab").arg(name));
    window_->setWindowModified(!history_->stack()->isClean());
}

void FileActions::refuse(const QString& sentence)
{
    Q_EMIT message(sentence);
    QMessageBox::warning(window_, tr("Attention Lab"), sentence);
}

} // namespace attnlab::ui
