#include "features/designs/designs_view.h"
#include "widgets/lesson_target.h"

#include "features/designs/design_layout_widget.h"
#include "features/designs/equivalence_job.h"
#include "render/head_colors.h"
#include "features/designs/designs_state.h"
#include "widgets/themed.h"
#include "model/document_model.h"

#include <QLabel>
#include <QVBoxLayout>

#include <exception>

namespace attnlab::ui {

namespace {

QString chip(int head, int heads, std::int64_t begin, std::int64_t end)
{
    const QString rows = end - begin == 1 ? QStringLiteral("row&nbsp;%1").arg(begin)
                                          : QStringLiteral("rows&nbsp;%1–%2").arg(begin).arg(end - 1);
    return QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span>&nbsp;head&nbsp;%2:&nbsp;%3")
        .arg(headColor(head, heads).name())
        .arg(head)
        .arg(rows);
}

} // namespace

DesignsView::DesignsView(DesignsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    intro_ = new QLabel(tr("The same multi-head attention, with its parameters arranged in different ways (a "
                           "GroupedQueryAttention call adds its narrower keys and values). Drawn to one "
                           "scale: every rectangle is a weight matrix (rows × columns), filled with the colour of the "
                           "head that uses it; thin strips are biases; the dashed square is the causal mask."));
    intro_->setWordWrap(true);
    layout_ = new DesignLayoutWidget;
    nameTarget(layout_, QStringLiteral("design-layout"));
    equivalence_ = new QLabel;
    nameTarget(equivalence_, QStringLiteral("equivalence"));
    equivalence_->setWordWrap(true);
    equivalence_->setTextFormat(Qt::RichText);
    equivalence_->setFrameShape(QFrame::StyledPanel);
    equivalence_->setMargin(8);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(layout_, 1);
    layout->addWidget(equivalence_);

    connect(state_, &DesignsState::changed, this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            refresh();
        else if (flags & ChangeFlag::View)
            showEquivalence();
    });
    connect(state_, &DesignsState::equivalenceChanged, this, [this] { showEquivalence(); });
    followPalette(this, [this] { showEquivalence(); });
    refresh();
}

void DesignsView::refresh()
{
    // The layouts are counts from the call alone: instant, so they follow every edit.
    try {
        layout_->setPainter(DesignLayoutPainter(compare_designs(state_->document()->config())));
        layout_->setToolTip(QString());
    } catch (const std::exception& e) {
        layout_->setPainter({});
        equivalence_->setText(QString::fromUtf8(e.what()));
        return;
    }
    const Config& c = state_->document()->config();
    if (!c.heads_split_d_out()) {
        equivalence_->setText(tr("<b>Equivalence:</b> with d_out = %1 and %2 heads there is no matched-width wrapper "
                                 "(%1 / %2 is not whole), so there is nothing to compare.")
                                  .arg(c.d_out)
                                  .arg(c.num_heads));
        return;
    }
    showEquivalence();
}

void DesignsView::showEquivalence()
{
    const Config& c = state_->document()->config();
    if (!c.heads_split_d_out())
        return; // refresh() said why there is nothing to compare
    const EquivalenceJob* job = state_->equivalence();
    if (state_->equivalencePending()) {
        equivalence_->setText(tr("<b>Equivalence:</b> comparing the two designs on the same input…"));
        return;
    }
    const auto e = job->result();
    if (!e) {
        equivalence_->setText(tr("<b>Equivalence:</b> not computed: %1").arg(job->error().toHtmlEscaped()));
        return;
    }
    const ExperimentSpec& spec = job->checkedSpec();
    const bool ok = e->equivalent();
    const std::int64_t hd = e->wrapper.d_out;
    // Grouped-query attention: head h's keys and values are its group's rows, g = h / group_size.
    const std::int64_t group = e->integrated.group_size();
    const QString kvRows = e->integrated.is_grouped()
                               ? tr("rows <i>g</i>·%1 … (<i>g</i>+1)·%1−1 of W_key and W_value, <i>g</i> = <i>h</i> / "
                                    "%2, its group's key/value head, and their biases")
                                     .arg(hd)
                                     .arg(group)
                               : tr("and of W_key, W_value and their biases");
    QString text =
        tr("<b>Equivalence.</b> Give head <i>h</i> rows <i>h</i>·%1 … (<i>h</i>+1)·%1−1 of W_query.weight (%10) "
           "and the matched-width wrapper's concatenated output equals the integrated "
           "<tt>context.merged</tt>: max |difference| = <b>%2</b> %3 (tolerance %4), on a %5 × %6 × %7 input%8; "
           "adding out_proj: %9.<br>")
            .arg(hd)
            .arg(QString::number(e->max_abs_diff, 'e', 2))
            .arg(ok ? QStringLiteral("<span style='color:%1'>✓ equal</span>").arg(cssColor(styleFor(this).same))
                    : QStringLiteral("<span style='color:%1'>✗ differ</span>").arg(cssColor(styleFor(this).differs)))
            .arg(kEquivalenceTolerance)
            .arg(spec.batch)
            .arg(spec.num_tokens)
            .arg(spec.config.d_in)
            .arg(spec.num_tokens < state_->document()->numTokens()
                     ? tr(" (the first %1 tokens: causal, so later ones cannot change them)").arg(spec.num_tokens)
                     : QString())
            .arg(QString::number(e->output_max_abs_diff, 'e', 2))
            .arg(kvRows);
    const int heads = static_cast<int>(e->heads.size());
    QStringList chips;
    for (int h = 0; h < heads; ++h) {
        if (heads > 16 && h == 12) {
            chips << QStringLiteral("…");
            h = heads - 1;
        }
        const HeadEquivalence& he = e->heads[static_cast<std::size_t>(h)];
        chips << chip(h, heads, he.row_begin, he.row_end);
    }
    equivalence_->setText(text + chips.join(QStringLiteral(" &nbsp; ")));
}

} // namespace attnlab::ui
