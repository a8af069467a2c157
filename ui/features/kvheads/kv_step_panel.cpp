#include "features/kvheads/kv_step_panel.h"

#include "features/kvheads/kv_cache_strip_widget.h"
#include "features/kvheads/kvheads_state.h"
#include "render/number_format.h"
#include "widgets/flow_layout.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace attnlab::ui {

KvStepPanel::KvStepPanel(KvHeadsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    models_ = new QComboBox;
    models_->addItems(KvHeadsState::stepModels());
    models_->setAccessibleName(tr("Model"));
    models_->setToolTip(tr("A GPT shipped with the app: trained on The Verdict with 1 to 8 heads, or on the "
                           "induction task."));
    prompt_ = new QLineEdit;
    prompt_->setAccessibleName(tr("Prompt"));
    prompt_->setToolTip(tr("The text the model continues, read as the model reads text (run --model does the "
                           "same)."));
    prompt_->setMinimumWidth(320);
    step_ = new QPushButton(tr("&Step"));
    step_->setToolTip(tr("Generate one token, greedily: the first step reads the prompt into the cache."));
    reset_ = new QPushButton(tr("&Reset"));
    reset_->setToolTip(tr("Empty the cache and forget the generated tokens."));
    auto* row = new FlowLayout;
    auto* modelLabel = new QLabel(tr("GP&T:"));
    modelLabel->setBuddy(models_);
    auto* promptLabel = new QLabel(tr("&Prompt:"));
    promptLabel->setBuddy(prompt_);
    for (QWidget* w :
         {static_cast<QWidget*>(modelLabel), static_cast<QWidget*>(models_), static_cast<QWidget*>(promptLabel),
          static_cast<QWidget*>(prompt_), static_cast<QWidget*>(step_), static_cast<QWidget*>(reset_)})
        row->addWidget(w);
    strip_ = new KvCacheStripWidget;
    computed_ = new QLabel;
    computed_->setWordWrap(true);
    text_ = new QLabel;
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(strip_);
    layout->addWidget(computed_);
    layout->addWidget(text_);

    connect(models_, &QComboBox::currentTextChanged, this, [this](const QString& name) { state_->setStepModel(name); });
    connect(prompt_, &QLineEdit::editingFinished, this, [this] { state_->setPrompt(prompt_->text()); });
    connect(step_, &QPushButton::clicked, this, [this] {
        state_->setPrompt(prompt_->text()); // a prompt typed and not yet confirmed is the one stepped
        state_->step();
    });
    connect(reset_, &QPushButton::clicked, state_, &KvHeadsState::reset);
    connect(state_, &KvHeadsState::stepChanged, this, &KvStepPanel::refresh);
    refresh();
}

void KvStepPanel::refresh()
{
    const KvStepper& s = state_->stepper();
    {
        const QSignalBlocker b(models_);
        models_->setCurrentText(state_->stepModel());
    }
    if (prompt_->text() != state_->prompt())
        prompt_->setText(state_->prompt());
    step_->setEnabled(s.ready() && !s.full());
    reset_->setEnabled(s.steps() > 0);
    KvCacheStrip strip;
    if (const GptModel* m = s.model()) {
        strip.layers = static_cast<int>(m->settings.n_layers);
        strip.heads = static_cast<int>(m->settings.n_heads);
    }
    strip.tokens = s.tokenLabels(s.cachedIds());
    strip.newFrom = static_cast<int>(s.cachedTokens() - s.lastAdded());
    strip_->setStrip(strip);
    const QString problem = state_->stepProblem();
    if (!problem.isEmpty()) {
        computed_->setText(tr("Cannot step: %1").arg(problem));
    } else if (s.steps() == 0) {
        computed_->setText(tr("Step reads the prompt's %1 tokens into the cache at once, then adds one token a step.")
                               .arg(s.prompt().size()));
    } else if (s.steps() == 1) {
        computed_->setText(tr("This step read the prompt: %1 queries, keys and values per head and layer, %2 "
                              "multiply-adds of attention. From now on, one token a step.")
                               .arg(s.lastAdded())
                               .arg(shortCount(static_cast<double>(s.cachedMultiplyAdds()))));
    } else {
        computed_->setText(tr("This step computed 1 query, 1 key, 1 value per head and layer (%1 multiply-adds of "
                              "attention); without the cache it would recompute all %2 (%3).")
                               .arg(shortCount(static_cast<double>(s.cachedMultiplyAdds())))
                               .arg(s.cachedTokens())
                               .arg(shortCount(static_cast<double>(s.fullMultiplyAdds()))));
    }
    text_->setText(tr("Text: %1 ▸ %2")
                       .arg(s.text(s.prompt()).toHtmlEscaped(),
                            s.generated().empty()
                                ? tr("(nothing generated yet)")
                                : QStringLiteral("<b>%1</b>").arg(s.text(s.generated()).toHtmlEscaped())));
}

} // namespace attnlab::ui
