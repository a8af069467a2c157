#pragma once
// File > Open…, Save, Save As…, Recent files and Quit for `.attnlab.json` sessions. A file that
// cannot be read is refused with its one-sentence reason and the current state stays as it was.
#include <QObject>
#include <QString>
#include <QStringList>

class QMainWindow;
class QMenu;

namespace attnlab::ui {

class Session;
class SettingsHistory;

class FileActions : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRecent = 8;

    FileActions(QMainWindow* window, Session* session, SettingsHistory* history, QObject* parent = nullptr);
    void populateMenu(QMenu* file); // Open, Save, Save As, Recent; the caller adds Export and Quit

    // Without dialogs (the menu actions and the tests both use these). On failure: false, *error set.
    bool openFile(const QString& path, QString* error);
    bool saveFile(const QString& path, QString* error);
    QString currentPath() const { return path_; }
    static QStringList recentFiles();

Q_SIGNALS:
    void message(const QString& text); // for the status bar
    void opened();                     // a session file was opened and applied

private:
    void open();
    void save();
    void saveAs();
    void addRecent(const QString& path);
    void fillRecentMenu();
    void updateTitle();
    void refuse(const QString& sentence);

    QMainWindow* window_;
    Session* session_;
    SettingsHistory* history_;
    QMenu* recent_ = nullptr;
    QString path_;
};

} // namespace attnlab::ui
