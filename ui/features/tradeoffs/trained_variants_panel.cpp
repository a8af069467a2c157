#include "features/tradeoffs/trained_variants_panel.h"
#include "widgets/lesson_target.h"

#include "features/tradeoffs/tradeoffs_state.h"
#include "features/tradeoffs/trained_variants.h"
#include "render/head_colors.h"
#include "render/heatmap_source.h"
#include "widgets/heatmap_widget.h"
#include "model/document_model.h"
#include "text/tokenizer.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {

TrainedVariantsPanel::TrainedVariantsPanel(TradeoffsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    losses_ = new QLabel;
    nameTarget(losses_, QStringLiteral("trained-losses"));
    losses_->setTextFormat(Qt::RichText);
    caption_ = new QLabel;
    caption_->setWordWrap(true);
    grid_ = new QGridLayout;
    grid_->setSpacing(4);
    // Caption across the top; the loss table and the heads beside each other keep the tab short enough
    // for a 1600 x 1000 screen.
    auto* body = new QHBoxLayout;
    body->addWidget(losses_, 0, Qt::AlignTop);
    body->addLayout(grid_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption_);
    layout->addLayout(body, 1);
    // Four GPT forwards per text: done when the page is seen, not on every keystroke behind another tab.
    connect(state_, &TradeoffsState::changed, this, [this](ChangeFlags flags) {
        if ((flags & ChangeFlag::Settings) && isVisible())
            refresh();
    });
}

void TrainedVariantsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
}

void TrainedVariantsPanel::refresh()
{
    const std::string text =
        state_->document()->usesTextInput() ? state_->document()->spec().text : verdict_first_sentence();
    const int layer = state_->document()->usesTextInput() ? state_->document()->gptLayer() : 1;
    const std::string key = text + "\n" + std::to_string(layer);
    if (key == shownKey_)
        return;
    shownKey_ = key;
    for (QWidget* w : rowWidgets_)
        delete w;
    rowWidgets_.clear();
    heatmaps_.clear();

    const TrainedVariants& result = state_->trainedVariants(text, layer);
    QString table = tr("<table cellspacing=0 cellpadding=3><tr><th>num_heads</th><th>held-out loss<br>(shipped, seed 0)"
                       "</th><th>held-out<br>mean ± std</th><th>train<br>mean ± std</th></tr>");
    QString how;
    int row = 0;
    double lo = 1e9, hi = -1e9, spread = 0; // the variants' mean held-out losses and the largest seed spread
    for (const TrainedVariant& v : result.variants) {
        const int heads = v.heads;
        if (!v.error.isEmpty()) {
            table +=
                tr("<tr><td align=center>%1</td><td colspan=3>%2</td></tr>").arg(heads).arg(v.error.toHtmlEscaped());
            continue;
        }
        const TrainedLoss& t = v.loss;
        how = v.how;
        lo = std::min(lo, t.val_mean);
        hi = std::max(hi, t.val_mean);
        spread = std::max(spread, t.val_std);
        table +=
            QStringLiteral("<tr><td align=center><b>%1</b></td><td align=center>%2</td><td align=center>%3 ± %4</td>"
                           "<td align=center>%5 ± %6</td></tr>")
                .arg(heads)
                .arg(t.val_loss, 0, 'f', 3)
                .arg(t.val_mean, 0, 'f', 3)
                .arg(t.val_std, 0, 'f', 3)
                .arg(t.train_mean, 0, 'f', 3)
                .arg(t.train_std, 0, 'f', 3);
        if (!v.trace)
            continue;
        const auto& trace = v.trace;
        const std::vector<HeadMeasures>& m = v.measures;
        auto* label = new QLabel(tr("<b>%1 head%2</b>").arg(heads).arg(heads == 1 ? "" : "s"));
        grid_->addWidget(label, row, 0);
        rowWidgets_.push_back(label);
        const ColorScale scale = heatmapScale(trace, AttentionMatrix::Weights, 0, HeatmapScaleMode::Log);
        for (int h = 0; h < heads; ++h) {
            HeatmapStyle style;
            style.axes = false;
            style.legend = false;
            style.accent = headColor(h, heads);
            style.title = headShortLabel(h); // the number beside the colour: colours alone fail some readers
            style.fontPx = 11;
            auto* w = new HeatmapWidget;
            w->setMinimumSize(34, 34);
            w->setAccessibleName(tr("%1-head model, head %2").arg(heads).arg(h));
            w->setHeatmap(HeatmapPainter(heatmapSlice(trace, AttentionMatrix::Weights, h, 0), scale, {}, style));
            if (h < static_cast<int>(m.size()))
                w->setToolTip(tr("head %1: distance %2 · entropy %3 · previous %4 · first %5")
                                  .arg(h)
                                  .arg(m[h].distance, 0, 'f', 1)
                                  .arg(m[h].entropy, 0, 'f', 2)
                                  .arg(m[h].previous, 0, 'f', 2)
                                  .arg(m[h].first, 0, 'f', 2));
            grid_->addWidget(w, row, 1 + h);
            rowWidgets_.push_back(w);
            heatmaps_.push_back(w);
        }
        ++row;
    }
    losses_->setText(table + QStringLiteral("</table>"));
    caption_->setText(tr("<b>Trained on The Verdict</b> (d_model 128, 2 layers): the loss each reached, %1 "
                         "The variants' mean held-out losses lie within %2 nats of each other; one seed's standard "
                         "deviation is up to %3. Every variant's heads in layer %4 on the same %5 tokens "
                         "(right; hover a head for its measures).")
                          .arg(how.toHtmlEscaped())
                          .arg(hi >= lo ? hi - lo : 0.0, 0, 'f', 3)
                          .arg(spread, 0, 'f', 3)
                          .arg(layer)
                          .arg(result.tokens));
}

} // namespace attnlab::ui
