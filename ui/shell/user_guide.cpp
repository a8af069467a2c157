#include "shell/user_guide.h"
#include "widgets/lesson_target.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

// Reads built-in Markdown pages through guideMarkdown, so pictures become captions wherever a page is
// loaded from (the first page, a followed link, Back).
class GuideBrowser : public QTextBrowser {
public:
    using QTextBrowser::QTextBrowser;

    QVariant loadResource(int type, const QUrl& name) override
    {
        if (type == QTextDocument::MarkdownResource || name.path().endsWith(QLatin1String(".md"))) {
            QFile file(QLatin1Char(':') + name.path());
            if (file.open(QIODevice::ReadOnly))
                return guideMarkdown(QString::fromUtf8(file.readAll()));
            return {};
        }
        return QTextBrowser::loadResource(type, name);
    }
};

} // namespace

QString guideMarkdown(const QString& markdown)
{
    static const QRegularExpression picture(QStringLiteral("!\\[([^\\]]*)\\]\\([^)]*\\)"));
    QString out = markdown;
    out.replace(picture, QStringLiteral("*(Picture in the source tree: \\1)*"));
    return out;
}

QUrl guideTarget(const QUrl& page, const QUrl& link)
{
    if (!link.scheme().isEmpty() && link.scheme() != QLatin1String("qrc"))
        return {};
    const QUrl resolved = page.resolved(link);
    const QString path = resolved.path();
    if (!path.startsWith(QLatin1String("/docs/")) || !path.endsWith(QLatin1String(".md")) ||
        !QFile::exists(QLatin1Char(':') + path))
        return {};
    return resolved;
}

UserGuide::UserGuide(QWidget* parent) : QDialog(parent), browser_(new GuideBrowser), note_(new QLabel)
{
    nameTarget(this, QStringLiteral("user-guide"));
    setWindowTitle(tr("Attention Lab User Guide"));
    nameTarget(browser_, QStringLiteral("user-guide-text"));
    browser_->setOpenLinks(false); // links are followed here: a page of the manual, or a web address outside
    connect(browser_, &QTextBrowser::anchorClicked, this, &UserGuide::follow);
    nameTarget(note_, QStringLiteral("user-guide-note"));
    note_->setWordWrap(true);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* back = buttons->addButton(tr("Back"), QDialogButtonBox::ActionRole);
    QPushButton* contents = buttons->addButton(tr("Contents"), QDialogButtonBox::ActionRole);
    connect(back, &QPushButton::clicked, browser_, &QTextBrowser::backward);
    connect(browser_, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    back->setEnabled(false);
    connect(contents, &QPushButton::clicked, this, [this] { open(QStringLiteral("README.md")); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_, 1);
    layout->addWidget(note_);
    layout->addWidget(buttons);
    resize(900, 700);
    open(QStringLiteral("README.md"));
}

bool UserGuide::open(const QString& page)
{
    const QUrl target = guideTarget(QUrl(QStringLiteral("qrc:/docs/README.md")), QUrl(page));
    if (target.isEmpty())
        return false;
    note_->clear();
    browser_->setSource(target, QTextDocument::MarkdownResource);
    return true;
}

void UserGuide::follow(const QUrl& link)
{
    if (link.scheme() == QLatin1String("http") || link.scheme() == QLatin1String("https")) {
        QDesktopServices::openUrl(link);
        return;
    }
    if (link.toString().startsWith(QLatin1Char('#'))) {
        browser_->scrollToAnchor(link.fragment());
        return;
    }
    const QUrl target = guideTarget(browser_->source(), link);
    if (target.isEmpty()) {
        note_->setText(tr("%1 is in the source tree, not in the manual built into the app.").arg(link.toString()));
        return;
    }
    note_->clear();
    browser_->setSource(target, QTextDocument::MarkdownResource);
}

} // namespace attnlab::ui
