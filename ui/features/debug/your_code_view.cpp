#include "features/debug/your_code_view.h"
#include "widgets/lesson_target.h"

#include "lessons/bugs.h"
#include "features/debug/recording_compare.h"
#include "widgets/code_font.h"
#include "widgets/themed.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QMetaObject>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {

namespace {

// The tables' row tints: the same red and green as the injected-bug diff, from the table's palette.
RenderStyle tableStyle(const QTableWidget* t)
{
    return RenderStyle::fromPalette(t->palette(), QPalette::Base);
}

QString shapeText(const Shape& s)
{
    return QString::fromStdString(shape_to_string(s));
}

QTableWidget* makeTable(const QStringList& headers, const QString& name)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
    nameTarget(t, name);
    t->setTabKeyNavigation(false); // Tab leaves the table; the arrows move inside it
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells, const QColor& fill)
{
    const RenderStyle style = tableStyle(t);
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (fill.isValid()) {
            item->setBackground(fill);
            item->setForeground(style.readable(style.text, fill));
        }
        t->setItem(row, c, item);
    }
}

} // namespace

YourCodeView::YourCodeView(RecordingCompare* model, QWidget* parent) : QWidget(parent), model_(model)
{
    title_ = new QLabel(tr("Record your own module with the three lines of <b>Help &gt; Record Your Module…</b>, then "
                           "open the file with <b>File &gt; Compare With My Code…</b>: its forward is matched to the "
                           "book's stages by value, and the first stage it never reaches is shown here."));
    nameTarget(title_, QStringLiteral("your-code-title"));
    title_->setWordWrap(true);
    message_ = new QLabel;
    nameTarget(message_, QStringLiteral("your-code-message"));
    message_->setWordWrap(true);
    message_->hide();
    // Item views read their description from accessibleDescription, not from a tooltip.
    lines_ = makeTable({tr("line"), tr("your forward"), tr("what it holds")}, QStringLiteral("your-code-lines"));
    stages_ =
        makeTable({tr("book's stage"), tr("shape"), tr("reached by your code")}, QStringLiteral("your-code-stages"));
    lines_->setAccessibleName(tr("Your forward, line by line"));
    lines_->setAccessibleDescription(tr("Each line of your recorded forward and the tensor it holds."));
    stages_->setAccessibleName(tr("The book's stages"));
    stages_->setAccessibleDescription(
        tr("Each stage of the book's module, its shape, and whether your code reached it."));
    useCodeFont(lines_, 0.9);
    useCodeFont(stages_, 0.9);
    summary_ = new QLabel;
    nameTarget(summary_, QStringLiteral("your-code-summary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* sideBySide = new QHBoxLayout;
    sideBySide->addWidget(lines_, 3);
    sideBySide->addWidget(stages_, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(message_);
    layout->addLayout(sideBySide, 1);
    layout->addWidget(summary_);
    connect(model_, &RecordingCompare::changed, this, &YourCodeView::refresh);
    followPalette(this, [this] { refresh(); });
    refresh();
}

void YourCodeView::refresh()
{
    message_->setStyleSheet(QStringLiteral("color: %1;").arg(cssColor(styleFor(message_).differs)));
    message_->setVisible(!model_->error().isEmpty());
    message_->setText(model_->error());
    if (!model_->hasResult())
        return;
    const RecordingComparison& r = model_->result();
    title_->setText(tr("<b>%1</b>: your <code>%2</code>, compared with %4 <code>%3</code> on its own weights "
                       "and input.")
                        .arg(model_->path().section('/', -1).toHtmlEscaped(), QString::fromStdString(r.recorded_class),
                             QString::fromStdString(r.problem.empty() ? positional_call(r.config) : r.module),
                             QString::fromStdString(r.owner)));
    fillLines();
    fillStages();
    fillSummary();
}

void YourCodeView::fillLines()
{
    const RecordingComparison& r = model_->result();
    const Recording& rec = model_->recording();
    const std::string scope = r.first ? r.first->scope : std::string{};
    const RecordedScope* s = rec.find_scope(scope);
    highlighted_ = r.first ? r.first->line : -1;
    lines_->setRowCount(0);
    if (!s)
        return;
    const QStringList text = QString::fromStdString(s->source).split('\n');
    const int from = s->forward_offset();
    const int indent = from < text.size() ? static_cast<int>(text[from].indexOf(QLatin1String("def"))) : 0;
    for (int i = from; i < text.size(); ++i) {
        if (text[i].trimmed().isEmpty() && i + 1 == text.size())
            break;
        const int line = s->first_line + i;
        QStringList holds;
        for (const RecordedEvent& e : rec.events) {
            if (e.scope != scope || e.line != line || e.kind == "error" || !e.value.defined())
                continue;
            const auto it = r.explains.find(e.index);
            holds << QStringLiteral("%1 %2 %3")
                         .arg(QString::fromStdString(e.variable), shapeText(e.shape),
                              it != r.explains.end() ? "= " + QString::fromStdString(it->second)
                                                     : QStringLiteral("≠ book"));
        }
        if (r.first && r.first->kind == "error" && line == r.first->line)
            holds << QString::fromStdString(r.first->error);
        const int row = lines_->rowCount();
        lines_->insertRow(row);
        setRow(lines_, row, {QString::number(line), text[i].mid(std::max(0, indent)), holds.join(QStringLiteral("; "))},
               line == highlighted_ ? tableStyle(lines_).differsFill : QColor());
    }
    lines_->resizeColumnToContents(0);
    lines_->resizeColumnToContents(1);
    // Once laid out (the table may not have its size yet): the divergence in the middle of the view.
    QMetaObject::invokeMethod(
        lines_,
        [this] {
            // The code keeps at most three fifths of the width, so what each line holds stays in view beside it.
            const int room = lines_->viewport()->width() * 3 / 5 - lines_->columnWidth(0);
            if (lines_->columnWidth(1) > room && room > 100)
                lines_->setColumnWidth(1, room);
            for (int r = 0; r < lines_->rowCount(); ++r)
                if (lines_->item(r, 0)->text() == QString::number(highlighted_))
                    lines_->scrollToItem(lines_->item(r, 0), QAbstractItemView::PositionAtCenter);
        },
        Qt::QueuedConnection);
}

void YourCodeView::fillStages()
{
    const RecordingComparison& r = model_->result();
    stages_->setRowCount(0);
    const std::string diverging = r.first ? r.first->stage : std::string{};
    for (const StageReach& s : r.stages) {
        const bool here = s.stage == diverging;
        QString reached = here ? tr("✗ first divergence") : tr("after the divergence");
        if (!here && s.reach >= 0)
            reached = s.held_by >= 0 ? tr("✓ line %1, %2").arg(s.line).arg(QString::fromStdString(s.variable))
                                     : tr("✓ inline, by line %1").arg(s.line);
        const int row = stages_->rowCount();
        stages_->insertRow(row);
        setRow(stages_, row, {QString::fromStdString(s.stage), shapeText(s.shape), reached},
               here ? tableStyle(stages_).differsFill : (s.reach >= 0 ? tableStyle(stages_).sameFill : QColor()));
    }
    if (r.stages.empty() && r.first) { // no module takes the weights: the call itself diverges
        stages_->insertRow(0);
        setRow(stages_, 0, {QStringLiteral("config"), QString(), tr("✗ first divergence")},
               tableStyle(stages_).differsFill);
    }
    stages_->resizeColumnsToContents();
}

void YourCodeView::fillSummary()
{
    const RecordingComparison& r = model_->result();
    if (!r.first) {
        summary_->setText(tr("<p style='font-size:15pt'><b>No divergence.</b> Every stage of the book's forward is "
                             "reached with the book's values.</p>"));
        return;
    }
    const RecordingDivergence& d = *r.first;
    QString html = tr("<p style='font-size:15pt'><b>First divergence: %1</b> (%2)")
                       .arg(QString::fromStdString(d.stage), QString::fromStdString(d.kind));
    if (d.line >= 0)
        html += tr(" at line %1%2: <code>%3</code>")
                    .arg(d.line)
                    .arg(d.scope.empty() ? QString() : tr(" in %1").arg(QString::fromStdString(d.scope)))
                    .arg(QString::fromStdString(d.source).section('\n', 0, 0).toHtmlEscaped());
    html += QStringLiteral("</p><p>") + QString::fromStdString(describe_difference(d)).toHtmlEscaped();
    if (!r.problem.empty())
        html += QStringLiteral(" ") + QString::fromStdString(r.problem).toHtmlEscaped();
    if (!d.nearest.stage.empty() && d.nearest.stage != d.stage && d.kind != "error" && d.kind != "missing")
        html += tr(" Nearest stage of the book: <b>%1</b> %2%3.")
                    .arg(QString::fromStdString(d.nearest.stage), shapeText(d.nearest.shape),
                         d.nearest.max_abs_diff ? tr(", max |difference| %1").arg(*d.nearest.max_abs_diff, 0, 'g', 4)
                                                : QString());
    html += QStringLiteral("</p>");
    if (!d.bug.empty()) {
        const BugInfo& info = bug_info(bug_from_name(d.bug));
        html += tr("<p>This is the lab's known bug <b>%1</b>: %2. %3 Try it under <i>Injected bugs</i>.</p>")
                    .arg(QString::fromStdString(info.name), QString::fromStdString(info.title).toHtmlEscaped(),
                         QString::fromStdString(info.explanation).toHtmlEscaped());
    }
    summary_->setText(html);
}

} // namespace attnlab::ui
