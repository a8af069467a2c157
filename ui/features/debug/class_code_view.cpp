#include "features/debug/class_code_view.h"
#include "widgets/lesson_target.h"

#include "lessons/bugs.h"
#include "tensor/error.h"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

constexpr int kPathRole = Qt::UserRole; // a readable recording's path, on its row

QString stageText(const std::string& stage)
{
    return QString::fromStdString(stage);
}

QString bugText(const std::string& bug)
{
    if (bug.empty())
        return QObject::tr("no known bug");
    return QStringLiteral("%1, %2").arg(QString::fromStdString(bug),
                                        QString::fromStdString(bug_info(bug_from_name(bug)).title));
}

} // namespace

ClassCodeView::ClassCodeView(QWidget* parent) : QWidget(parent)
{
    title_ = new QLabel(tr("Each student records their module (<b>Help &gt; Record Your Module…</b>) and hands in the "
                           "file. Open the folder of recordings: each is compared with the book, and the class is "
                           "tallied by the stage where it first diverges and the known bug it makes. Double-click "
                           "a recording to open it in <b>Your code</b>."));
    nameTarget(title_, QStringLiteral("class-code-title"));
    title_->setWordWrap(true);
    open_ = new QPushButton(tr("Open Folder…"));
    nameTarget(open_, QStringLiteral("class-code-open"));
    open_->setToolTip(tr("Compare every .safetensors recording in a folder with the book."));
    // Anonymised by default: the tally goes on the projector, and a wrong answer is nobody's in front of the class.
    names_ = new QCheckBox(tr("Show file names"));
    nameTarget(names_, QStringLiteral("class-code-names"));
    names_->setToolTip(tr("Name each recording by its file instead of \"recording 1\", \"recording 2\", …"));
    message_ = new QLabel;
    nameTarget(message_, QStringLiteral("class-code-message"));
    message_->setWordWrap(true);
    message_->hide();
    tally_ = new QTreeWidget;
    nameTarget(tally_, QStringLiteral("class-code-tally"));
    tally_->setHeaderHidden(true);
    tally_->setColumnCount(1);
    tally_->setAccessibleName(tr("The class's first divergences"));
    tally_->setAccessibleDescription(tr("How many recordings match the book or first diverge at each stage, by known "
                                        "bug; each opens in Your code."));
    auto* row = new QHBoxLayout;
    row->addWidget(open_);
    row->addWidget(names_);
    row->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addLayout(row);
    layout->addWidget(message_);
    layout->addWidget(tally_, 1);
    connect(open_, &QPushButton::clicked, this, &ClassCodeView::chooseFolder);
    connect(names_, &QCheckBox::toggled, this, &ClassCodeView::fill);
    connect(tally_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { activate(item); });
    fill();
}

void ClassCodeView::chooseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("The Class's Code"), folder_);
    if (!folder.isEmpty())
        openFolder(folder);
}

bool ClassCodeView::openFolder(const QString& folder)
{
    try {
        ClassCode result = compare_class(class_recording_files(folder.toStdString()));
        result_ = std::move(result);
        folder_ = folder;
        message_->hide();
    } catch (const Error& e) {
        message_->setText(QString::fromStdString(e.what()));
        message_->show();
        return false;
    }
    fill();
    return true;
}

QString ClassCodeView::recordingLabel(std::size_t index) const
{
    if (names_->isChecked())
        return QFileInfo(QString::fromStdString(result_->recordings[index].path)).fileName();
    return tr("recording %1").arg(index + 1);
}

void ClassCodeView::addGroup(const QString& text, const std::vector<std::size_t>& recordings)
{
    auto* group = new QTreeWidgetItem(tally_, {text});
    for (std::size_t i : recordings) {
        const ClassRecording& r = result_->recordings[i];
        QString line = recordingLabel(i);
        if (!r.comparison) { // named whatever the checkbox says: the teacher has to find the file
            line =
                tr("%1: %2").arg(QFileInfo(QString::fromStdString(r.path)).fileName(), QString::fromStdString(r.error));
        } else if (r.comparison->first && r.comparison->first->line >= 0) {
            line += tr(", line %1").arg(r.comparison->first->line);
        }
        auto* item = new QTreeWidgetItem(group, {line});
        if (r.comparison)
            item->setData(0, kPathRole, QString::fromStdString(r.path));
        item->setToolTip(0, r.comparison ? tr("Open it in Your code.") : QString::fromStdString(r.error));
    }
    group->setExpanded(true);
}

void ClassCodeView::fill()
{
    tally_->clear();
    if (!result_) {
        new QTreeWidgetItem(tally_, {tr("No folder opened yet.")});
        return;
    }
    const ClassCode& c = *result_;
    // Spelled out: tr's %n plural needs a translation loaded, and the window ships none.
    const QString where = QDir::toNativeSeparators(folder_);
    new QTreeWidgetItem(tally_, {c.recordings.size() == 1
                                     ? tr("1 recording in %1").arg(where)
                                     : tr("%1 recordings in %2").arg(QString::number(c.recordings.size()), where)});
    if (!c.matching.empty())
        addGroup(c.matching.size() == 1 ? tr("1 matches the book") : tr("%1 match the book").arg(c.matching.size()),
                 c.matching);
    for (const ClassDivergenceGroup& g : c.groups)
        addGroup(tr("%1 at %2: %3").arg(g.recordings.size()).arg(stageText(g.stage), bugText(g.bug)), g.recordings);
    if (!c.unreadable.empty())
        addGroup(tr("%1 could not be read").arg(c.unreadable.size()), c.unreadable);
}

void ClassCodeView::activate(QTreeWidgetItem* item)
{
    const QString path = item ? item->data(0, kPathRole).toString() : QString();
    if (!path.isEmpty())
        Q_EMIT recordingChosen(path);
}

} // namespace attnlab::ui
