#include "features/stepper/predict_card.h"
#include "widgets/code_font.h"
#include "widgets/lesson_target.h"

#include "features/stepper/stepper_state.h"
#include "model/study_model.h"

#include <QComboBox>
#include <QCompleter>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

QComboBox* yesNo(const QString& name)
{
    auto* box = new QComboBox;
    nameTarget(box, name);
    box->addItem(QObject::tr("choose"));
    box->addItem(QObject::tr("yes"), true);
    box->addItem(QObject::tr("no"), false);
    return box;
}

std::optional<bool> chosen(const QComboBox* box)
{
    if (!box || box->currentIndex() <= 0)
        return std::nullopt;
    return box->currentData().toBool();
}

} // namespace

QString tallyText(const StepperState& state)
{
    const PredictState& p = state.study()->predict();
    return QObject::tr("%1 of %2 predictions right").arg(p.right()).arg(p.asked());
}

QString verdictText(const StepperState& state)
{
    const PredictionCheck* check = state.study()->lastCheck();
    if (!check)
        return {};
    QStringList lines;
    lines << (check->all_right() ? QObject::tr("✓ Right.") : QObject::tr("✗ Not quite:"));
    const auto add = [&lines](const std::optional<Verdict>& v) {
        if (v)
            lines << QStringLiteral("%1 %2").arg(v->right ? QStringLiteral("✓") : QStringLiteral("✗"),
                                                 QString::fromStdString(v->says));
    };
    add(check->axis_count);
    for (const Verdict& v : check->axes)
        add(v);
    add(check->contiguous);
    add(check->shares_storage);
    add(check->mask);
    if (const Verdict* head = state.study()->lastHeadCheck())
        add(*head);
    return lines.join(QLatin1Char('\n'));
}

PredictCard::PredictCard(StepperState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    nameTarget(this, QStringLiteral("predict-card"));
    prompt_ = new QLabel;
    nameTarget(prompt_, QStringLiteral("predict-prompt"));
    prompt_->setWordWrap(true);
    QFont big = prompt_->font();
    big.setPixelSize(big.pixelSize() > 0 ? big.pixelSize() * 3 / 2 : 24);
    big.setBold(true);
    prompt_->setFont(big);
    // Presenting hides the settings column, and the question is answered from the settings and the code line:
    // both are said here, so the card alone is enough (on the projector, as on a phone).
    given_ = new QLabel;
    nameTarget(given_, QStringLiteral("predict-given"));
    given_->setWordWrap(true);
    given_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    code_ = new QLabel;
    nameTarget(code_, QStringLiteral("predict-code"));
    code_->setWordWrap(true);
    code_->setTextFormat(Qt::PlainText);
    useCodeFont(code_);
    form_ = new QWidget;
    fields_ = new QGridLayout(form_);
    check_ = new QPushButton(tr("Check"));
    nameTarget(check_, QStringLiteral("predict-check"));
    check_->setToolTip(tr("Check the answer axis by axis, then show the stage (Enter)."));
    check_->setDefault(true);
    reveal_ = new QPushButton(tr("Reveal"));
    nameTarget(reveal_, QStringLiteral("predict-reveal"));
    reveal_->setToolTip(tr("Show the stage without an answer (the next key: Right, Space, PageDown)."));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(check_);
    buttons->addWidget(reveal_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(prompt_);
    layout->addWidget(given_);
    layout->addWidget(code_);
    layout->addWidget(form_);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(check_, &QPushButton::clicked, this, &PredictCard::submit);
    connect(reveal_, &QPushButton::clicked, state_->study(), &StudyModel::revealStage);
    connect(state_, &StepperState::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Trace | ChangeFlag::Stage | ChangeFlag::Predict))
            rebuild();
    });
    rebuild();
}

void PredictCard::rebuild()
{
    const StageQuestion* q = state_->study()->question();
    const std::optional<HeadQuestion> heads = state_->study()->headQuestion();
    const QString key = q ? QString::fromStdString(q->stage) + QString::number(q->axes.size()) +
                                (heads ? QStringLiteral(" heads %1").arg(heads->previous.size()) : QString())
                          : QString();
    if (!q || key == shownKey_)
        return;
    shownKey_ = key;
    while (QLayoutItem* item = fields_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    axes_.clear();
    mask_.clear();
    contiguous_ = shares_ = head_ = nullptr;
    prompt_->setText(QString::fromStdString(q->prompt));
    given_->setText(QString::fromStdString(q->given));
    code_->setText(q->code.empty() ? QString() : tr("in the code: %1").arg(QString::fromStdString(q->code)));
    code_->setVisible(!q->code.empty());
    QStringList offered;
    for (const std::string& name : q->offered)
        offered << QString::fromStdString(name);
    int row = 0;
    auto* shape = new QHBoxLayout;
    shape->addWidget(new QLabel(QStringLiteral("(")));
    for (std::size_t a = 0; a < q->axes.size(); ++a) {
        auto* field = new QLineEdit;
        nameTarget(field, QStringLiteral("predict-axis-%1").arg(a));
        field->setPlaceholderText(tr("dim %1").arg(a));
        field->setAccessibleName(tr("Size of dimension %1").arg(a));
        field->setToolTip(tr("A whole number, or an axis name: %1").arg(offered.join(QStringLiteral(", "))));
        field->setCompleter(new QCompleter(offered, field));
        field->setMaximumWidth(150);
        field->setMinimumWidth(field->fontMetrics().horizontalAdvance(QStringLiteral("dim 00")) + 16); // its hint whole
        connect(field, &QLineEdit::returnPressed, this, &PredictCard::submit);
        axes_.push_back(field);
        shape->addWidget(field);
        if (a + 1 < q->axes.size())
            shape->addWidget(new QLabel(QStringLiteral(",")));
    }
    shape->addWidget(new QLabel(QStringLiteral(")")));
    shape->addStretch(1);
    auto* shapeRow = new QWidget;
    shapeRow->setLayout(shape);
    // Each question over its answer, in one column: a column of questions beside the answers made the card
    // wider than a projector's page beside the lessons dock.
    fields_->addWidget(new QLabel(tr("shape")), row++, 0);
    fields_->addWidget(shapeRow, row++, 0);
    if (q->asks_layout) {
        contiguous_ = yesNo(QStringLiteral("predict-contiguous"));
        shares_ = yesNo(QStringLiteral("predict-shares"));
        fields_->addWidget(new QLabel(tr("contiguous?")), row++, 0);
        fields_->addWidget(contiguous_, row++, 0, Qt::AlignLeft);
        fields_->addWidget(new QLabel(tr("same storage as %1?").arg(QString::fromStdString(q->layout_of))), row++, 0);
        fields_->addWidget(shares_, row++, 0, Qt::AlignLeft);
    }
    if (q->asks_mask) {
        auto* grid = new QWidget;
        auto* cells = new QGridLayout(grid);
        cells->setSpacing(2);
        for (int i = 0; i < q->tokens; ++i)
            for (int j = 0; j < q->tokens; ++j) {
                auto* cell = new QToolButton;
                nameTarget(cell, QStringLiteral("predict-mask-%1-%2").arg(i).arg(j));
                cell->setCheckable(true);
                cell->setText(QStringLiteral("%1,%2").arg(i).arg(j));
                cell->setAccessibleName(tr("Query %1, key %2 hidden").arg(i).arg(j));
                cells->addWidget(cell, i, j);
                mask_.push_back(cell);
            }
        fields_->addWidget(new QLabel(tr("hidden (query, key)")), row++, 0);
        fields_->addWidget(grid, row++, 0, Qt::AlignLeft);
    }
    if (heads) {
        head_ = new QComboBox;
        nameTarget(head_, QStringLiteral("predict-head"));
        head_->setAccessibleName(QString::fromStdString(heads->prompt));
        head_->addItem(tr("choose"));
        for (std::size_t h = 0; h < heads->previous.size(); ++h)
            head_->addItem(tr("head %1").arg(h), static_cast<int>(h));
        auto* label = new QLabel(QString::fromStdString(heads->prompt));
        label->setWordWrap(true);
        label->setBuddy(head_);
        fields_->addWidget(label, row++, 0);
        fields_->addWidget(head_, row++, 0, Qt::AlignLeft);
    }
    if (!axes_.empty())
        axes_.front()->setFocus();
}

void PredictCard::submit()
{
    const StageQuestion* q = state_->study()->question();
    if (!q)
        return;
    StageAnswer answer;
    for (QLineEdit* field : axes_)
        answer.axes.push_back(field->text().toStdString());
    answer.contiguous = chosen(contiguous_);
    answer.shares_storage = chosen(shares_);
    if (q->asks_mask) {
        const int n = static_cast<int>(q->tokens);
        for (std::size_t k = 0; k < mask_.size(); ++k)
            if (mask_[k]->isChecked())
                answer.hidden.push_back({static_cast<std::int64_t>(k) / n, static_cast<std::int64_t>(k) % n});
    }
    if (head_ && head_->currentIndex() > 0) // before the stage's answer, which shows the stage
        state_->study()->answerHead(head_->currentData().toInt());
    state_->study()->answerStage(answer);
}

} // namespace attnlab::ui
