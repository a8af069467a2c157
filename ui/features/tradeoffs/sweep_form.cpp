#include "features/tradeoffs/sweep_form.h"
#include "widgets/lesson_target.h"

#include "widgets/flow_layout.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace attnlab::ui {

namespace {

QSpinBox* spin(const char* name, int most, const QString& tip)
{
    auto* s = new QSpinBox;
    nameTarget(s, QLatin1String(name));
    s->setRange(0, most); // 0 is typed as easily as any number: core says why it cannot train
    s->setToolTip(tip);
    s->setAccessibleName(QLatin1String(name));
    return s;
}

QString countsText(const std::vector<std::int64_t>& heads)
{
    QStringList items;
    for (std::int64_t h : heads)
        items << QString::number(h);
    return items.join(QStringLiteral(", "));
}

} // namespace

SweepForm::SweepForm(QWidget* parent) : QWidget(parent)
{
    task_ = new QComboBox;
    nameTarget(task_, QStringLiteral("sweep-task"));
    task_->setAccessibleName(tr("task"));
    for (const std::string& name : train::task_names())
        task_->addItem(QString::fromStdString(name));
    task_->setToolTip(tr("previous-token: predict the token before. induction: a segment repeats later in the "
                         "sequence; predict its copy. the-verdict: the book's story, next token."));
    emb_ = spin("sweep-emb", 4096, tr("emb_dim, which is also every attention block's d_out."));
    layers_ = spin("sweep-layers", 64, tr("Transformer blocks."));
    seeds_ = spin("sweep-seeds", 100, tr("Runs per num_heads, from torch.manual_seed(0), (1), …"));
    steps_ = spin("sweep-steps", 1000000, tr("AdamW steps per run."));
    batch_ = spin("sweep-batch", 100000, tr("Sequences per step."));
    heads_ = new QLineEdit;
    nameTarget(heads_, QStringLiteral("sweep-heads"));
    heads_->setAccessibleName(tr("num_heads to compare"));
    heads_->setPlaceholderText(tr("every divisor of emb"));
    heads_->setToolTip(tr("Head counts to compare, e.g. 1, 2, 4; empty: every divisor of emb, down to head_dim 1."));
    kvGroups_ = new QLineEdit;
    nameTarget(kvGroups_, QStringLiteral("sweep-kv-groups"));
    kvGroups_->setAccessibleName(tr("key/value heads to compare (num_kv_groups)"));
    kvGroups_->setPlaceholderText(tr("as many as the heads"));
    kvGroups_->setToolTip(tr("num_kv_groups to compare at every num_heads, e.g. 8, 4, 2, 1: each key/value head is "
                             "shared by num_heads / num_kv_groups query heads (GroupedQueryAttention), so each must "
                             "divide every num_heads; 1 is multi-query attention. Empty: as many as the heads, the "
                             "book's MultiHeadAttention."));
    lr_ = new QLineEdit;
    nameTarget(lr_, QStringLiteral("sweep-lr"));
    lr_->setAccessibleName(tr("learning rate"));
    lr_->setToolTip(tr("AdamW's learning rate."));
    // Label and field pairs that wrap: in a grid of four columns the form was wider than the page beside
    // the lessons dock, and the table and curves below it scrolled sideways out of view.
    auto* flow = new FlowLayout(this, 10);
    flow->setContentsMargins(0, 0, 0, 0);
    const std::vector<std::pair<QString, QWidget*>> fields = {{tr("Task"), task_},
                                                              {tr("emb (d_out)"), emb_},
                                                              {tr("Layers"), layers_},
                                                              {tr("num_heads"), heads_},
                                                              {tr("Key/value heads"), kvGroups_},
                                                              {tr("Seeds"), seeds_},
                                                              {tr("Steps"), steps_},
                                                              {tr("Batch"), batch_},
                                                              {tr("Learning rate"), lr_}};
    for (const auto& [text, field] : fields) {
        auto* pair = new QWidget;
        auto* row = new QHBoxLayout(pair);
        row->setContentsMargins(0, 0, 0, 0);
        auto* label = new QLabel(text);
        label->setBuddy(field);
        row->addWidget(label);
        row->addWidget(field);
        field->setMinimumWidth(field == heads_ || field == kvGroups_ ? 160 : 90);
        flow->addWidget(pair);
    }
    connect(task_, &QComboBox::currentTextChanged, this,
            [this](const QString& task) { setSettings(sweepDefaults(task.toStdString())); });
    setSettings(sweepDefaults("induction"));
}

void SweepForm::setSettings(const SweepSettings& s)
{
    base_ = s;
    {
        const QSignalBlocker block(task_);
        task_->setCurrentText(QString::fromStdString(s.task));
    }
    emb_->setValue(static_cast<int>(s.emb));
    layers_->setValue(static_cast<int>(s.layers));
    heads_->setText(countsText(s.heads));
    kvGroups_->setText(countsText(s.kvGroups));
    seeds_->setValue(s.seeds);
    steps_->setValue(static_cast<int>(s.steps));
    batch_->setValue(static_cast<int>(s.batch));
    lr_->setText(QString::number(s.lr, 'g', 6));
}

std::optional<SweepSettings> SweepForm::settings(QString* error) const
{
    SweepSettings s = base_;
    s.task = task_->currentText().toStdString();
    s.emb = emb_->value();
    s.layers = layers_->value();
    s.seeds = seeds_->value();
    s.steps = steps_->value();
    s.batch = batch_->value();
    bool ok = false;
    s.lr = lr_->text().trimmed().toDouble(&ok);
    if (!ok) {
        *error = tr("The learning rate '%1' is not a number; give one such as 0.003.").arg(lr_->text().trimmed());
        return std::nullopt;
    }
    const auto heads = parseHeadList(heads_->text(), error);
    if (!heads)
        return std::nullopt;
    s.heads = *heads;
    const auto kv = parseKvGroupList(kvGroups_->text(), error);
    if (!kv)
        return std::nullopt;
    s.kvGroups = *kv;
    return s;
}

} // namespace attnlab::ui
