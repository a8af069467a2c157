#pragma once
// Help > User Guide: the manual (docs/*.md, built into the app as resources under :/docs/) read offline
// in the window, its links between pages followed in place. Pictures stay in the source tree (they would
// add megabytes to the program), so each is named by its caption instead.
#include <QDialog>
#include <QString>
#include <QUrl>

class QLabel;
class QTextBrowser;

namespace attnlab::ui {

// A manual page's Markdown as the guide shows it: every picture replaced by its caption in italics.
QString guideMarkdown(const QString& markdown);
// Where a link on `page` (":/docs/stepper.md") leads in the guide: another built-in page (with its
// #anchor), or an empty URL when it points outside the manual (the front page, a source file).
QUrl guideTarget(const QUrl& page, const QUrl& link);

class UserGuide : public QDialog {
    Q_OBJECT
public:
    explicit UserGuide(QWidget* parent = nullptr);
    // Shows `page` ("stepper.md", optionally with "#anchor"); false when the manual has no such page.
    bool open(const QString& page);
    QTextBrowser* browser() const { return browser_; }

private:
    void follow(const QUrl& link);

    QTextBrowser* browser_;
    QLabel* note_;
};

} // namespace attnlab::ui
