#include "shell/config_panel.h"
#include "widgets/lesson_target.h"

#include "model/presets.h"
#include "widgets/themed.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QCheckBox>
#include "widgets/middle_elided_combo.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <optional>

namespace attnlab::ui {

ConfigPanel::ConfigPanel(Session* session, QWidget* parent) : QWidget(parent), session_(session)
{
    preset_ = new MiddleElidedComboBox;
    nameTarget(preset_, QStringLiteral("preset"));
    preset_->setAccessibleName(tr("Preset"));
    preset_->setToolTip(tr("A listing from chapter 3 or a GPT-2 size: sets the module and every field below."));
    // Long preset titles must not widen the settings column; the open list shows them in full.
    preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    preset_->setMinimumContentsLength(12);
    preset_->addItem(tr("Custom settings"));
    for (const Preset& p : presets())
        preset_->addItem(p.title, p.id);
    module_ = new MiddleElidedComboBox;
    nameTarget(module_, QStringLiteral("module-class"));
    module_->setAccessibleName(tr("Module"));
    module_->setToolTip(tr("Which of the book's attention classes to construct."));
    module_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    module_->setMinimumContentsLength(12);
    for (ModuleKind k : {ModuleKind::MultiHeadAttention, ModuleKind::GroupedQueryAttention,
                         ModuleKind::MultiHeadAttentionWrapper, ModuleKind::CausalAttention,
                         ModuleKind::SelfAttentionV2, ModuleKind::SelfAttentionV1, ModuleKind::SimpleSelfAttention})
        module_->addItem(QString::fromStdString(module_class_name(k)), static_cast<int>(k));

    form_ = new QFormLayout;
    form_->setLabelAlignment(Qt::AlignRight);
    lastValid_ = new QLabel;
    nameTarget(lastValid_, QStringLiteral("config-last-valid"));
    lastValid_->setWordWrap(true);
    lastValid_->setTextFormat(Qt::PlainText);
    form_->addRow(lastValid_);
    form_->addRow(tr("Preset"), preset_);
    form_->addRow(tr("Module"), module_);
    addSpin(Slot::d_in, tr("Width of each input token vector (the embedding size)."), 0, 1 << 16);
    addSpin(Slot::d_out, tr("Width each token is projected to; the heads share it."), 0, 1 << 16);
    addSpin(Slot::num_heads, tr("Number of attention heads; d_out must divide evenly by it."), 0, 4096);
    addSpin(Slot::num_kv_groups,
            tr("GroupedQueryAttention's key/value heads (Hugging Face: num_key_value_heads): each serves "
               "num_heads / num_kv_groups query heads; num_heads is MultiHeadAttention, 1 multi-query."),
            0, 4096);
    addSpin(Slot::window_size,
            tr("GroupedQueryAttention's sliding window: each token sees at most this many latest tokens, itself "
               "included; None sees the whole causal context."),
            0, 1 << 20);
    headDim_ = new QLabel;
    nameTarget(headDim_, QStringLiteral("head-dim"));
    headDim_->setWordWrap(true);
    form_->addRow(headDim_);
    addSpin(Slot::context_length, tr("Longest input the causal mask covers."), 0, 1 << 20);
    auto* dropout = new QDoubleSpinBox;
    dropout->setRange(0.0, 1.0); // nn.Dropout takes 0 <= p <= 1
    dropout->setSingleStep(0.05);
    dropout->setDecimals(2);
    dropout->setToolTip(tr("Probability of zeroing an attention weight; acts only in training mode."));
    spins_["dropout"] = dropout;
    form_->addRow(QStringLiteral("dropout"), dropout);
    connect(dropout, &QDoubleSpinBox::valueChanged, this,
            [this](double v) { session_->document()->setSlot(Slot::dropout, v); });
    training_ = new QCheckBox(tr("training mode"));
    nameTarget(training_, QStringLiteral("training"));
    training_->setToolTip(tr("model.train(): dropout zeroes attention weights (the After dropout heatmap)."));
    form_->addRow(QString(), training_);
    connect(training_, &QCheckBox::toggled, session_->document(), &DocumentModel::setTraining);
    // Seeds as the book calls torch.manual_seed: before constructing the module, and (optionally)
    // again right before the forward, as it does before its dropout example.
    seed_ = new QSpinBox;
    nameTarget(seed_, QStringLiteral("seed"));
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setPrefix(QStringLiteral("torch.manual_seed("));
    seed_->setSuffix(QStringLiteral(")"));
    seed_->setToolTip(tr("Called before the module is constructed: the weights are PyTorch's for this seed."));
    form_->addRow(tr("seed"), seed_);
    connect(seed_, &QSpinBox::valueChanged, this,
            [this](int v) { session_->document()->setSeed(static_cast<std::uint64_t>(v)); });
    dropoutSeed_ = new QSpinBox;
    nameTarget(dropoutSeed_, QStringLiteral("dropout-seed"));
    dropoutSeed_->setRange(-1, std::numeric_limits<int>::max());
    dropoutSeed_->setSpecialValueText(tr("continue the stream"));
    dropoutSeed_->setToolTip(tr("torch.manual_seed called again right before the forward, which re-seeds dropout's "
                                "masks; at the lowest value dropout continues where the initialisation left off."));
    form_->addRow(tr("dropout seed"), dropoutSeed_);
    // Their prefix and special text would size the whole form past the panel's width: let them take the
    // column's width instead, as the other fields do.
    for (QSpinBox* box : {seed_, dropoutSeed_}) {
        box->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        box->setMinimumWidth(80);
    }
    connect(dropoutSeed_, &QSpinBox::valueChanged, this, [this](int v) {
        session_->document()->setDropoutSeed(v < 0 ? std::nullopt
                                                   : std::optional<std::uint64_t>(static_cast<std::uint64_t>(v)));
    });
    bias_ = new QCheckBox(QStringLiteral("qkv_bias"));
    nameTarget(bias_, QStringLiteral("qkv_bias"));
    bias_->setToolTip(tr("Whether the query, key and value projections (nn.Linear) carry a bias."));
    form_->addRow(QString(), bias_);
    connect(bias_, &QCheckBox::toggled, this,
            [this](bool on) { session_->document()->setSlot(Slot::qkv_bias, on ? 1 : 0); });
    auto* input = new QLabel(tr("<b>Input</b> x of shape (batch, num_tokens, d_in)"));
    input->setWordWrap(true);
    form_->addRow(input);
    addSpin(Slot::batch, tr("How many sequences go through at once."), 0, 256);
    addSpin(Slot::num_tokens, tr("Tokens per sequence; at most context_length."), 0, 1 << 20);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form_);

    connect(preset_, &QComboBox::activated, this, [this](int index) {
        if (const Preset* p = findPreset(preset_->itemData(index).toString()))
            session_->document()->applyPreset(*p);
    });
    connect(module_, &QComboBox::activated, this, [this](int index) {
        session_->document()->setModuleKind(static_cast<ModuleKind>(module_->itemData(index).toInt()));
    });
    followParts(session_->parts(), this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Diagnostics | ChangeFlag::Guide))
            refresh();
    });
    followPalette(this, [this] { refresh(); });
    refresh();
}

void ConfigPanel::addSpin(Slot slot, const QString& tip, int min, int max)
{
    const std::string name = slot_name(slot);
    auto* spin = new QSpinBox;
    spin->setRange(min, max);
    spin->setToolTip(tip);
    nameTarget(spin, QString::fromStdString(name));
    spin->setGroupSeparatorShown(false);
    spins_[name] = spin;
    form_->addRow(QString::fromStdString(name), spin);
    connect(spin, &QSpinBox::valueChanged, this, [this, slot](int v) { session_->document()->setSlot(slot, v); });
}

QAbstractSpinBox* ConfigPanel::spinBox(const std::string& slot) const
{
    const auto it = spins_.find(slot);
    return it == spins_.end() ? nullptr : it->second;
}

void ConfigPanel::refresh()
{
    const Config& c = session_->document()->config();
    const auto& moduleSlots = module_slots(c.kind);
    auto hasSlot = [&](const std::string& s) {
        return std::find(moduleSlots.begin(), moduleSlots.end(), s) != moduleSlots.end();
    };
    const std::map<std::string, double> values = {{"d_in", double(c.d_in)},
                                                  {"d_out", double(c.d_out)},
                                                  {"num_heads", double(c.num_heads)},
                                                  {"num_kv_groups", double(c.num_kv_groups)},
                                                  {"window_size", double(c.window_size.value_or(0))},
                                                  {"context_length", double(c.context_length)},
                                                  {"dropout", c.dropout},
                                                  {"batch", double(session_->document()->batch())},
                                                  {"num_tokens", double(session_->document()->numTokens())}};
    // A lesson holding the diagnosis back (lesson 6) marks no box red and no split as not whole: the room reads the
    // call itself first. The numbers stay.
    const bool diagnosisHeld = session_->view()->guide().held == QLatin1String("diagnosis");
    std::map<std::string, bool> bad;
    for (const auto& d : session_->trace()->diagnostics())
        if (d.severity == Severity::Error && d.slot && !diagnosisHeld)
            bad[slot_name(*d.slot)] = true;
    for (const auto& [slot, spin] : spins_) {
        const QSignalBlocker block(spin);
        // Only touch the value when it differs, so a box being typed into keeps its cursor.
        if (auto* s = qobject_cast<QSpinBox*>(spin); s && s->value() != static_cast<int>(values.at(slot)))
            s->setValue(static_cast<int>(values.at(slot)));
        if (auto* d = qobject_cast<QDoubleSpinBox*>(spin); d && d->value() != values.at(slot))
            d->setValue(values.at(slot));
        const bool inCall = slot == "batch" || slot == "num_tokens" || hasSlot(slot);
        spin->setEnabled(inCall && !(slot == "batch" && !c.is_batched()));
        // A slot the module does not take has no value: a number there (12 heads, 1024 tokens of context)
        // would say something false. d_in and d_out stay, as the input's width, which they are.
        const bool applies = inCall || slot == "d_in" || slot == "d_out";
        // The box keeps the session's value; pinning its range to it makes Qt show the special text instead.
        if (!spin->property("slotMin").isValid()) {
            auto* si = qobject_cast<QSpinBox*>(spin);
            auto* sd = qobject_cast<QDoubleSpinBox*>(spin);
            spin->setProperty("slotMin", si ? double(si->minimum()) : sd->minimum());
            spin->setProperty("slotMax", si ? double(si->maximum()) : sd->maximum());
        }
        const double low = applies ? spin->property("slotMin").toDouble() : values.at(slot);
        const double high = applies ? spin->property("slotMax").toDouble() : values.at(slot);
        if (auto* s = qobject_cast<QSpinBox*>(spin)) {
            s->setSpecialValueText(slot == "window_size" ? QStringLiteral("None")
                                   : applies             ? QString()
                                                         : tr("not applicable"));
            s->setRange(static_cast<int>(low), static_cast<int>(high));
            s->setValue(static_cast<int>(values.at(slot)));
        }
        if (auto* d = qobject_cast<QDoubleSpinBox*>(spin)) {
            d->setSpecialValueText(applies ? QString() : tr("not applicable"));
            d->setRange(low, high);
            d->setValue(values.at(slot));
        }
        if (!spin->property("slotTip").isValid())
            spin->setProperty("slotTip", spin->toolTip());
        spin->setToolTip(
            applies ? spin->property("slotTip").toString()
                    : tr("%1() takes no %2.")
                          .arg(QString::fromStdString(module_class_name(c.kind)), QString::fromStdString(slot)));
        // Only grouped-query attention has key/value heads of its own: elsewhere the row would be one more
        // "not applicable" between the sizes the student is reading.
        if (slot == "num_kv_groups" || slot == "window_size")
            form_->setRowVisible(spin, hasSlot(slot));
        spin->setStyleSheet(
            bad.count(slot)
                ? QStringLiteral("QAbstractSpinBox { border: 3px solid %1; }").arg(cssColor(styleFor(spin).differs))
                : QString());
    }
    {
        const QSignalBlocker block(bias_);
        bias_->setChecked(c.qkv_bias);
        bias_->setEnabled(hasSlot("qkv_bias"));
        const QSignalBlocker blockTraining(training_);
        training_->setChecked(session_->document()->training());
        training_->setEnabled(hasSlot("dropout"));
        const auto& spec = session_->document()->spec();
        const QSignalBlocker blockSeed(seed_);
        if (spec.seed <=
            static_cast<std::uint64_t>(seed_->maximum())) // larger seeds (session files) show as typed elsewhere
            seed_->setValue(static_cast<int>(spec.seed));
        const QString unused = session_->trace()->seedUnusedReason();
        seed_->setEnabled(unused.isEmpty());
        seed_->setToolTip(unused.isEmpty() ? tr("Called before the module is constructed: the weights are PyTorch's "
                                                "for this seed.")
                                           : unused);
        const QSignalBlocker blockDropoutSeed(dropoutSeed_);
        const bool fits =
            spec.dropout_seed && *spec.dropout_seed <= static_cast<std::uint64_t>(dropoutSeed_->maximum());
        dropoutSeed_->setValue(fits ? static_cast<int>(*spec.dropout_seed) : -1);
        dropoutSeed_->setEnabled(session_->document()->training() && hasSlot("dropout"));
    }
    module_->setCurrentIndex(module_->findData(static_cast<int>(c.kind)));
    // While the call line does not bind, the boxes keep the last call that did: say so, not as the typed call's.
    lastValid_->setVisible(session_->document()->callError().has_value());
    lastValid_->setText(session_->document()->callError()
                            ? tr("The boxes hold the last call that bound, %1; the call line's does not bind.")
                                  .arg(QString::fromStdString(positional_call(c)))
                            : QString());

    QString text;
    if (c.is_integrated() && c.num_heads > 0 && c.d_out > 0) {
        const bool whole = c.d_out % c.num_heads == 0;
        text = whole || diagnosisHeld
                   ? tr("<span style='font-size:20px'><b>head_dim</b> = d_out / num_heads = %1 / %2 = <b>%3</b></span>")
                         .arg(c.d_out)
                         .arg(c.num_heads)
                         .arg(whole ? QString::number(c.head_dim())
                                    : QString::number(double(c.d_out) / c.num_heads, 'f', 2))
                   : tr("<span style='font-size:20px; color:%4'><b>head_dim</b> = %1 / %2 = %3 <b>✗ not "
                        "whole</b></span>")
                         .arg(c.d_out)
                         .arg(c.num_heads)
                         .arg(double(c.d_out) / c.num_heads, 0, 'f', 2)
                         .arg(cssColor(styleFor(this).differs));
        if (c.is_grouped() && whole && c.num_kv_groups > 0) {
            if (!c.kv_groups_split_heads())
                text += tr("<br><span style='color:%3'>%1 key/value heads for %2 query heads <b>✗ not whole "
                           "groups</b></span>")
                            .arg(c.num_kv_groups)
                            .arg(c.num_heads)
                            .arg(cssColor(styleFor(this).differs));
            else if (c.num_kv_groups == 1) // multi-query: one head, and one is not "heads"
                text += tr("<br>1 key/value head, shared by all <b>%1</b> query heads (multi-query)").arg(c.num_heads);
            else
                text += tr("<br>%1 key/value heads, each shared by <b>%2</b> query heads")
                            .arg(c.num_kv_groups)
                            .arg(c.group_size());
        }
    } else if (c.kind == ModuleKind::MultiHeadAttentionWrapper) {
        text = tr("output width = num_heads × d_out = %1 × %2 = <b>%3</b>")
                   .arg(c.num_heads)
                   .arg(c.d_out)
                   .arg(c.output_width());
    } else {
        text = tr("one head, %1 features wide").arg(c.d_out);
    }
    headDim_->setText(text);

    int match = 0;
    for (int i = 1; i < preset_->count(); ++i)
        if (const Preset* p = findPreset(preset_->itemData(i).toString());
            p && p->config == c && p->bookInput == session_->document()->usesBookInput())
            match = i;
    preset_->setCurrentIndex(match);
}

} // namespace attnlab::ui
