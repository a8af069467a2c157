#include "features/kvheads/kv_memory_panel.h"

#include "designs/published_configs.h"
#include "features/kvheads/kv_memory_chart.h"
#include "features/kvheads/kvheads_state.h"
#include "render/number_format.h"
#include "widgets/flow_layout.h"
#include "widgets/lesson_target.h"
#include "widgets/stack_when_narrow.h"

#include <QComboBox>
#include <QEvent>
#include <QFontInfo>
#include <QScrollBar>
#include <QBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace attnlab::ui {

KvMemoryPanel::KvMemoryPanel(KvHeadsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    configs_ = new QComboBox;
    configs_->addItem(tr("the current call"), -1);
    for (std::size_t i = 0; i < published_configs().size(); ++i)
        configs_->addItem(QString::fromStdString(published_configs()[i].name), static_cast<int>(i));
    configs_->setAccessibleName(tr("Model"));
    configs_->setToolTip(tr("Whose KV cache to count: a published model's config, or the call in the settings."));
    layers_ = new QSpinBox;
    layers_->setRange(1, 512);
    layers_->setAccessibleName(tr("Layers"));
    layers_->setToolTip(tr("How many layers of the current call a model stacks; each keeps its own cache."));
    dtypes_ = new QComboBox;
    for (KvDtype d : {KvDtype::F32, KvDtype::BF16, KvDtype::F16})
        dtypes_->addItem(QString::fromStdString(dtype_name(d)), static_cast<int>(d));
    dtypes_->setAccessibleName(tr("Data type"));
    dtypes_->setToolTip(tr("The type the cache stores keys and values in: 4 bytes for f32, 2 for bf16 and f16."));
    context_ = new QSpinBox;
    context_->setRange(1, 1 << 30);
    context_->setAccessibleName(tr("Context length"));
    context_->setToolTip(tr("The tokens the cache holds for the table's bytes, up to the config's context_length."));
    auto* row = new FlowLayout;
    auto labelled = [row](const QString& text, QWidget* w) {
        auto* l = new QLabel(text);
        l->setBuddy(w);
        row->addWidget(l);
        row->addWidget(w);
    };
    labelled(tr("&Model:"), configs_);
    labelled(tr("La&yers:"), layers_);
    labelled(tr("&dtype:"), dtypes_);
    labelled(tr("C&ontext:"), context_);
    note_ = new QLabel;
    note_->setWordWrap(true);
    chart_ = new KvMemoryChart;
    table_ = new QTableWidget;
    nameTarget(table_, QStringLiteral("kv-memory-table")); // lesson 10 points at it
    table_->setColumnCount(5);
    table_->setHorizontalHeaderLabels({tr("kv heads"), tr("bytes per\ntoken"), tr("bytes for\nthe context"),
                                       tr("attention\nparams\nper layer"), tr("multiply-\nadds per\ntoken")});
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setTabKeyNavigation(false);
    table_->setAccessibleName(tr("Key/value head counts and their cache"));
    table_->setAccessibleDescription(tr("A row per number of key/value heads that divides num_heads, the config's own "
                                        "in bold: bytes per token, for the context, parameters and multiply-adds."));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    body_ = new QBoxLayout(QBoxLayout::LeftToRight);
    // Stacked on a projector, a gap wider than a scroll's margin (widgets/scroll_into_view.h) lets a lesson bring the
    // table into view with the chart whole above the page's edge rather than cut through by it.
    body_->setSpacing(12);
    body_->addWidget(chart_, 1);
    body_->addWidget(table_); // as wide as its columns (fitTable); the chart takes the rest
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(note_);
    layout->addLayout(body_, 1);

    connect(configs_, &QComboBox::currentIndexChanged, this,
            [this] { state_->setConfigIndex(configs_->currentData().toInt()); });
    connect(layers_, &QSpinBox::valueChanged, this, [this](int v) { state_->setLayers(v); });
    connect(dtypes_, &QComboBox::currentIndexChanged, this,
            [this] { state_->setDtype(static_cast<KvDtype>(dtypes_->currentData().toInt())); });
    connect(context_, &QSpinBox::valueChanged, this, [this](int v) { state_->setContext(v); });
    connect(state_, &KvHeadsState::memoryChanged, this, &KvMemoryPanel::refresh);
    refresh();
}

void KvMemoryPanel::refresh()
{
    const KvMemory& m = state_->memory();
    const QSignalBlocker b1(configs_), b2(layers_), b3(dtypes_), b4(context_);
    configs_->setCurrentIndex(configs_->findData(state_->configIndex()));
    layers_->setValue(static_cast<int>(state_->configIndex() < 0 ? state_->layers() : m.shape.layers));
    layers_->setEnabled(state_->configIndex() < 0); // a published config has its own
    dtypes_->setCurrentIndex(dtypes_->findData(static_cast<int>(state_->dtype())));
    context_->setMaximum(static_cast<int>(std::clamp<std::int64_t>(m.shape.context_length, 1, 1 << 30)));
    context_->setValue(static_cast<int>(m.context));
    if (!m.error.isEmpty())
        note_->setText(m.error);
    else
        note_->setText(
            tr("%1: %2 layers, %3 query heads of head_dim %4, %5 key/value heads%6. Source: %7")
                .arg(QString::fromStdString(m.shape.name))
                .arg(m.shape.layers)
                .arg(m.shape.num_heads)
                .arg(m.shape.head_dim)
                .arg(m.shape.num_kv_heads)
                .arg(m.shape.sliding_window ? tr(", a sliding window of %1 tokens").arg(*m.shape.sliding_window)
                                            : QString())
                .arg(m.shape.source.empty() ? tr("the call in the settings") : QString::fromStdString(m.shape.source)));
    chart_->setMemory(m);
    fillTable();
}

void KvMemoryPanel::fillTable()
{
    const KvMemory& m = state_->memory();
    table_->setRowCount(static_cast<int>(m.rows.size()));
    for (std::size_t i = 0; i < m.rows.size(); ++i) {
        const KvHeadsRow& r = m.rows[i];
        const QStringList cells = {
            QStringLiteral("%1 %2").arg(r.kv_heads).arg(QString::fromStdString(kv_kind(m.shape.num_heads, r.kv_heads))),
            kvBytesText(static_cast<double>(r.bytes_per_token)),
            QString::number(static_cast<double>(r.bytes) / 1e9, 'f', 3) + QStringLiteral(" GB"),
            groupedCount(r.parameters_per_layer), shortCount(static_cast<double>(r.cost.total()))};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            QFont f = item->font();
            f.setBold(r.is_config); // the config's own row, as its line is drawn thick
            item->setFont(f);
            table_->setItem(static_cast<int>(i), c, item);
        }
    }
    table_->setHorizontalHeaderItem(2, new QTableWidgetItem(tr("bytes for\n%1\ntokens").arg(m.context)));
    fitTable();
    placeTable();
}

void KvMemoryPanel::fitTable()
{
    // Every column whole, without a horizontal scroll bar, at the window's type size.
    table_->resizeColumnsToContents();
    table_->setMinimumWidth(table_->horizontalHeader()->length() + 2 * table_->frameWidth() +
                            table_->verticalScrollBar()->sizeHint().width());
    // And every row, so a table stacked under the chart does not scroll its few rows out of sight.
    table_->resizeRowsToContents();
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth() + 2;
    for (int r = 0; r < table_->rowCount(); ++r)
        height += table_->rowHeight(r);
    table_->setMinimumHeight(height);
}

void KvMemoryPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange) { // presentation mode: wider columns
        fitTable();
        placeTable();
    }
    QWidget::changeEvent(event);
}

void KvMemoryPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeTable();
}

void KvMemoryPanel::placeTable()
{
    // Beside the chart while the chart keeps room for its axis labels (a projector's type), else under it.
    stackWhenNarrow(body_, width(), QFontInfo(font()).pixelSize() * 34 + table_->minimumWidth());
}

} // namespace attnlab::ui
