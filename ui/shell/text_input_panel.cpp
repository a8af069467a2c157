#include "shell/text_input_panel.h"
#include "widgets/lesson_target.h"

#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_input.h"
#include "gpt/model_paths.h"
#include "model/model_job.h"
#include "tensor/error.h"
#include "text/letter_tokens.h"
#include "widgets/flow_layout.h"
#include "widgets/token_chips.h"
#include "model/document_model.h"
#include "model/trace_state.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {

namespace {

constexpr int kOpenedEntry = 0;   // the variant picker's entry for an opened checkpoint: no Verdict GPT has 0 heads
constexpr int kVerdictLayers = 2; // every GPT trained on The Verdict

} // namespace

TextInputPanel::TextInputPanel(Session* session, QWidget* parent) : QWidget(parent), session_(session)
{
    nameTarget(this, QStringLiteral("text-input-panel"));
    enabled_ = new QCheckBox; // its label and tooltip name the GPT the text goes through (sync)
    nameTarget(enabled_, QStringLiteral("text-input-enabled"));
    variant_ = new QComboBox;
    nameTarget(variant_, QStringLiteral("text-input-variant"));
    variant_->setAccessibleName(tr("Trained model"));
    // An opened model's entry is added later, under its file's name ("induction-gpt-h4"): the picker grows to it,
    // where sized once for "8 heads" it cut the name to "inductio".
    variant_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (int h : shipped_gpt_heads())
        variant_->addItem(h == 1 ? tr("1 head") : tr("%1 heads").arg(h), h);
    layer_ = new QComboBox;
    nameTarget(layer_, QStringLiteral("text-input-layer"));
    layer_->setAccessibleName(tr("Layer"));
    layer_->setToolTip(tr("Whose attention to study: the first or the second of the model's two layers."));
    for (int l = 0; l < kVerdictLayers; ++l)
        layer_->addItem(tr("layer %1").arg(l), l);
    about_ = new QLabel;
    nameTarget(about_, QStringLiteral("text-input-about"));
    about_->setWordWrap(true); // never widens the window
    text_ = new QLineEdit;
    nameTarget(text_, QStringLiteral("text-input-text"));
    text_->setMaxLength(static_cast<int>(kLongestText)); // a paste beyond it is cut, as QLineEdit does
    text_->setAccessibleName(tr("Input sentence"));
    text_->setToolTip(tr("The sentence the model reads; its tokens appear below, one chip each."));
    text_->setPlaceholderText(tr("Type a sentence; words the story never uses become <|unk|>."));
    chips_ = new TokenChips;
    nameTarget(chips_, QStringLiteral("text-input-chips"));
    chips_->setAccessibleName(tr("Tokens of the sentence"));
    chips_->setFocusPolicy(Qt::TabFocus); // a screen reader's user reaches the tokens and hears them

    // The choices and the sentence about them wrap onto more rows when the window is narrow (a
    // 1280-pixel projector with the lessons dock open): in one row they made the window wider than it,
    // and beside the choices the sentence was squeezed into a column of single words.
    auto* row = new FlowLayout;
    row->addWidget(enabled_);
    row->addWidget(variant_);
    row->addWidget(layer_);
    row->addWidget(about_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(text_);
    tokens_ = new QScrollArea;
    nameTarget(tokens_, QStringLiteral("text-input-tokens"));
    tokens_->setWidget(chips_);
    tokens_->setWidgetResizable(true);
    tokens_->setFrameShape(QFrame::NoFrame);
    tokens_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(tokens_);
    fitTokens();

    connect(enabled_, &QCheckBox::toggled, this, [this] { choose(); });
    connect(variant_, &QComboBox::currentIndexChanged, this, [this] { choose(); });
    connect(layer_, &QComboBox::currentIndexChanged, this,
            [this] { session_->document()->setGptLayer(layer_->currentData().toInt()); });
    connect(text_, &QLineEdit::textEdited, session_->trace(), &TraceState::setInputText);
    followParts(session_->parts(), this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Diagnostics))
            sync();
    });
    sync();
}

void TextInputPanel::choose()
{
    if (!enabled_->isChecked())
        return session_->document()->useSeededInput();
    const int heads = variant_->currentData().toInt();
    if (heads == kOpenedEntry)
        return session_->trace()->useOpenedModel();
    // From a checkpoint's layer 5 to a Verdict GPT, which has two: its first.
    const int layer = layer_->currentData().toInt();
    session_->trace()->useTrainedModel(heads, layer < kVerdictLayers ? layer : 0);
}

void TextInputPanel::setCompact(bool compact)
{
    if (compact == compact_) // the shell asks on every settings change; sync() has run for those already
        return;
    compact_ = compact;
    sync();
    fitRows();
}

void TextInputPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitTokens();
}

void TextInputPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitRows();
}

void TextInputPanel::fitRows()
{
    // The window's top area lays this panel out at its one-row hint, which cut a two-line summary
    // ("62 tokens, 0 unknown · hf-f32, whole, through GPT-2's byte-level BPE") in half.
    if (const int need = layout()->heightForWidth(width()); need > 0 && need != minimumHeight())
        setMinimumHeight(need);
}

void TextInputPanel::fitTokens()
{
    tokens_->setMaximumHeight(chips_->rowsHeight(2) + 2);
}

void TextInputPanel::sync()
{
    const bool on = session_->document()->usesTextInput();
    const QString unopened = session_->trace()->unopenedCheckpoint();
    {
        const QSignalBlocker b1(enabled_), b2(variant_), b3(layer_);
        enabled_->setChecked(on);
        // An opened checkpoint is no Verdict GPT: the label and tooltip name what the text goes through,
        // and a saved session's checkpoint that could not be opened is named as that, not as a Verdict GPT.
        if (!unopened.isEmpty()) {
            enabled_->setText(tr("Text through the session's checkpoint, not opened"));
            enabled_->setToolTip(tr("The saved session's checkpoint %1 could not be opened, so nothing runs; pick "
                                    "a GPT trained on The Verdict, or File > Open Model… another checkpoint.")
                                     .arg(unopened));
        } else if (session_->trace()->usesOpenedModel()) {
            enabled_->setText(tr("Text through the opened model"));
            enabled_->setToolTip(tr("The attention under study becomes the chosen layer of the opened model; x is "
                                    "what that layer receives."));
        } else {
            enabled_->setText(tr("Text through a GPT trained on The Verdict"));
            enabled_->setToolTip(tr("The attention under study becomes one layer of a small GPT (the book's chapter "
                                    "4 model, d_model 128, 2 layers) trained on the story; x is what that layer "
                                    "receives."));
        }
        syncOpenedEntry();
        // An opened GPT-2's layers; an unopened one's saved layer is listed, so the picker shows it.
        if (const int layers = std::max({kVerdictLayers, session_->trace()->gptLayers(),
                                         unopened.isEmpty() ? 0 : session_->document()->gptLayer() + 1});
            layer_->count() != layers) {
            layer_->clear();
            for (int l = 0; l < layers; ++l)
                layer_->addItem(tr("layer %1").arg(l), l);
        }
        if (const int heads = session_->trace()->gptHeads(); on && (heads > 0 || !unopened.isEmpty()))
            variant_->setCurrentIndex(
                variant_->findData(session_->trace()->usesOpenedModel() || !unopened.isEmpty() ? kOpenedEntry : heads));
        layer_->setCurrentIndex(std::max(0, layer_->findData(session_->document()->gptLayer())));
    }
    variant_->setEnabled(on);
    layer_->setEnabled(on && unopened.isEmpty()); // no layer of a model that is not there can be chosen
    text_->setVisible(on && !compact_);
    tokens_->setVisible(on && !compact_ && unopened.isEmpty()); // its tokenizer is the checkpoint's, not there either
    if (!on) {
        about_->setText(tr("off: %1").arg(session_->trace()->inputSummary()));
        fitRows();
        return;
    }
    if (text_->text() != session_->document()->inputText()) {
        text_->setText(session_->document()->inputText());
        text_->setCursorPosition(0); // a long sentence shows its beginning, not its end
    }
    if (!unopened.isEmpty()) {
        about_->setText(tr("%1 could not be opened, so the text goes through no model")
                            .arg(QString::fromStdString(gpt2_checkpoint_name(unopened.toStdString()))));
        fitRows();
        return;
    }
    const TokenizedText tokens = session_->trace()->textTokens();
    std::size_t unknown = 0;
    for (bool u : tokens.unknown)
        unknown += u ? 1 : 0;
    chips_->setTokens(tokens);
    QString about = tr("%1 tokens, %2 unknown").arg(tokens.tokens.size()).arg(unknown);
    if (session_->trace()->usesOpenedModel()) {
        const OpenedModel& m = *session_->trace()->modelJob()->model();
        const QString name = QString::fromStdString(m.plan.name);
        switch (m.reader) {
        case TextReader::Letters:
            about_->setText(about +
                            tr(" · %1, whole, reading its task's letters A to %2")
                                .arg(name, QString::fromStdString(letter_token(m.model->settings.vocab_size - 1))));
            break;
        case TextReader::BookWords:
            about_->setText(about + tr(" · %1, whole, through the book's chapter 2 tokenizer").arg(name));
            break;
        case TextReader::Gpt2Bpe:
            about_->setText(about + tr(" · %1, whole, through GPT-2's byte-level BPE").arg(name));
            break;
        }
        fitRows();
        return;
    }
    try {
        const auto model = cached_gpt_model(session_->document()->spec().gpt_model_path);
        about += tr(" · %1: held-out loss %2 nats (3 seeds: %3 ± %4)")
                     .arg(QString::fromStdString(model->name))
                     .arg(model->meta_number("val_loss"), 0, 'f', 3)
                     .arg(model->meta_number("val_loss_mean"), 0, 'f', 3)
                     .arg(model->meta_number("val_loss_std"), 0, 'f', 3);
    } catch (const Error&) {
        about += tr(" · the model file was not found");
    }
    about_->setText(about);
    fitRows();
}

// An opened checkpoint is one more entry of the picker, by its name, for as long as it is loaded: picking
// a Verdict GPT and then it again goes back to the checkpoint without reading it anew.
void TextInputPanel::syncOpenedEntry()
{
    const auto opened = session_->trace()->modelJob()->model();
    const QString unopened = session_->trace()->unopenedCheckpoint();
    const int index = variant_->findData(kOpenedEntry);
    const auto showEntry = [&](const QString& name, const QString& toolTip) {
        if (index < 0)
            variant_->addItem(name, kOpenedEntry);
        else
            variant_->setItemText(index, name);
        variant_->setToolTip(toolTip);
    };
    if (!unopened.isEmpty()) { // the saved session's checkpoint, by its name, said as not opened
        showEntry(tr("%1 (not opened)").arg(QString::fromStdString(gpt2_checkpoint_name(unopened.toStdString()))),
                  tr("The saved session's checkpoint %1 could not be opened; pick a GPT trained on The Verdict "
                     "instead.")
                      .arg(unopened));
        return;
    }
    if (!opened) {
        if (index >= 0)
            variant_->removeItem(index);
        variant_->setToolTip(tr("Which of the trained GPTs to use: they differ only in their number of heads."));
        return;
    }
    const QString name = QString::fromStdString(opened->plan.name);
    showEntry(name, tr("Which model the text goes through: the opened checkpoint %1, or a GPT trained on The Verdict "
                       "(those differ only in their number of heads).")
                        .arg(name));
}

} // namespace attnlab::ui
