#include "widgets/load_weights_dialog.h"

#include "widgets/themed.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

// Selectable, so a student can copy a shape or a sentence; only the long notes wrap (a wrapping label
// inside the form would be squeezed to the width of its shortest line).
QLabel* selectable(QLabel* label, bool wrap = false)
{
    label->setWordWrap(wrap);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

LoadWeightsDialog::LoadWeightsDialog(const QString& path, const ExperimentSpec& current, QWidget* parent)
    : QDialog(parent), path_(path), current_(current)
{
    setWindowTitle(tr("Load Weights"));
    build();
    try {
        info_ = inspect_weights(open_safetensors(path.toStdString()));
    } catch (const std::exception& e) { // a file that cannot be used is explained here, never thrown further
        error_->setText(tr("This file cannot be loaded: %1").arg(QString::fromUtf8(e.what())));
    }
    fill();
}

void LoadWeightsDialog::build()
{
    file_ = selectable(new QLabel);
    layout_ = selectable(new QLabel);
    shapes_ = selectable(new QLabel);
    context_ = selectable(new QLabel);
    module_ = new QComboBox;
    module_->setAccessibleName(tr("Module"));
    module_->setToolTip(tr("The book's classes whose state_dict has exactly these names and shapes."));
    layerLabel_ = new QLabel(tr("Layer:"));
    layer_ = new QComboBox;
    layer_->setAccessibleName(tr("Layer"));
    layer_->setToolTip(tr("A GPT-2 checkpoint holds one attention block per transformer layer; pick which one."));
    heads_ = new QComboBox;
    heads_->setAccessibleName(tr("num_heads"));
    heads_->setToolTip(tr("Every divisor of d_out splits it into equal heads of head_dim = d_out / num_heads."));
    headsNote_ = selectable(new QLabel, true);
    error_ = selectable(new QLabel, true);
    error_->setAccessibleName(tr("Why the file cannot be loaded"));
    error_->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(cssColor(styleFor(this).differs)));
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    loadButton()->setText(tr("&Load"));
    loadButton()->setToolTip(tr("Compute the attention of these weights; Edit > Undo goes back."));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(module_, &QComboBox::currentIndexChanged, this, &LoadWeightsDialog::refreshHeads);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->addRow(tr("File:"), file_);
    form->addRow(tr("Layout:"), layout_);
    form->addRow(tr("From the shapes:"), shapes_);
    form->addRow(tr("context_length:"), context_);
    form->addRow(tr("Module:"), module_);
    form->addRow(layerLabel_, layer_);
    form->addRow(tr("num_heads:"), heads_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(headsNote_);
    layout->addWidget(error_);
    layout->addWidget(buttons_);
    setMinimumWidth(640);
}

void LoadWeightsDialog::fill()
{
    const QFileInfo file(path_);
    file_->setText(QStringLiteral("<b>%1</b>").arg(file.fileName().toHtmlEscaped()));
    file_->setToolTip(file.absoluteFilePath());
    error_->setVisible(!info_);
    loadButton()->setEnabled(info_.has_value());
    for (QWidget* w : std::initializer_list<QWidget*>{module_, layer_, heads_})
        w->setEnabled(info_.has_value());
    layerLabel_->setVisible(info_ && !info_->layers.empty());
    layer_->setVisible(info_ && !info_->layers.empty());
    if (!info_) {
        for (QLabel* l : {layout_, shapes_, context_, headsNote_})
            l->setText(QStringLiteral("—"));
        adjustSize();
        return;
    }
    const WeightsInfo& info = *info_;
    layout_->setText(info.layout == WeightLayout::Gpt2Hf
                         ? tr("gpt2-hf — a GPT-2 checkpoint (fused c_attn, stored (in, out))")
                         : tr("torch — a module's state_dict"));
    QString shapes = QStringLiteral("d_in = %1, d_out = %2").arg(info.d_in).arg(info.d_out);
    if (info.kinds.front() != ModuleKind::SelfAttentionV1)
        shapes += QStringLiteral(", qkv_bias = %1").arg(QLatin1String(info.qkv_bias ? "True" : "False"));
    shapes_->setText(QStringLiteral("<b>%1</b>").arg(shapes));
    const ExperimentSpec spec = specWithFileWeights(current_, path_, info, defaultChoice(info, current_));
    context_->setText(info.context_length > 0 ? tr("%1, from the file's causal-mask buffer").arg(info.context_length)
                                              : tr("%1 (not stored in the file; enough for the %2 input tokens)")
                                                    .arg(spec.config.context_length)
                                                    .arg(spec.num_tokens));
    if (spec.num_tokens < current_.num_tokens)
        context_->setText(context_->text() + tr("; the input is cut to %1 tokens").arg(spec.num_tokens));

    const WeightsChoice first = defaultChoice(info, current_);
    for (ModuleKind kind : info.kinds)
        module_->addItem(QString::fromStdString(module_class_name(kind)), static_cast<int>(kind));
    module_->setCurrentIndex(module_->findData(static_cast<int>(first.kind)));
    module_->setEnabled(info.kinds.size() > 1);
    for (int l : info.layers)
        layer_->addItem(tr("layer %1").arg(l), l);
    layer_->setCurrentIndex(layer_->findData(first.layer));
    refreshHeads();
    adjustSize();
}

void LoadWeightsDialog::refreshHeads()
{
    if (!info_)
        return;
    const WeightsInfo& info = *info_;
    const WeightsChoice first = defaultChoice(info, current_);
    const auto kind = static_cast<ModuleKind>(module_->currentData().toInt());
    heads_->clear();
    if (info.num_heads > 0) { // the wrapper: one module per head, so the file knows
        heads_->addItem(tr("%1 (one CausalAttention per head in the file)").arg(info.num_heads),
                        static_cast<qlonglong>(info.num_heads));
        heads_->setEnabled(false);
        headsNote_->setText(tr("The wrapper keeps a separate CausalAttention for each head, so its state_dict does "
                               "say num_heads: there are %1 heads.* modules.")
                                .arg(info.num_heads));
        return;
    }
    if (kind != ModuleKind::MultiHeadAttention) {
        heads_->addItem(tr("— (a single head)"), qlonglong{1});
        heads_->setEnabled(false);
        headsNote_->setText(tr("%1 has a single head, so there is no num_heads to choose.")
                                .arg(QString::fromStdString(module_class_name(kind))));
        return;
    }
    heads_->setEnabled(true);
    for (std::int64_t h : divisors(info.d_out))
        heads_->addItem(tr("%1  (head_dim %2)").arg(h).arg(info.d_out / h), static_cast<qlonglong>(h));
    heads_->setCurrentIndex(heads_->findData(static_cast<qlonglong>(first.numHeads)));
    QString note = tr("num_heads is not stored in the weights: splitting d_out into heads is a reshape "
                      "(view and transpose), and a reshape has no parameters. Any divisor of d_out = %1 loads "
                      "the same numbers; each splits them into different heads.")
                       .arg(info.d_out);
    if (info.d_out == 768)
        note += tr(" GPT-2 small uses 12 heads of 64.");
    headsNote_->setText(note);
}

QString LoadWeightsDialog::errorText() const
{
    return info_ ? QString() : error_->text();
}

WeightsChoice LoadWeightsDialog::choice() const
{
    WeightsChoice c;
    c.kind = static_cast<ModuleKind>(module_->currentData().toInt());
    c.layer = layer_->count() ? layer_->currentData().toInt() : 0;
    c.numHeads = heads_->currentData().toLongLong();
    return c;
}

ExperimentSpec LoadWeightsDialog::chosenSpec() const
{
    return info_ ? specWithFileWeights(current_, path_, *info_, choice()) : current_;
}

QPushButton* LoadWeightsDialog::loadButton() const
{
    return buttons_->button(QDialogButtonBox::Ok);
}

} // namespace attnlab::ui
