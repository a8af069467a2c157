#include "features/kvheads/kv_memory_chart.h"

#include "render/render_style.h"

#include <QFontInfo>
#include <QPainter>

namespace attnlab::ui {

KvMemoryChart::KvMemoryChart(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(420, 260);
    setAccessibleName(tr("KV cache against context length"));
}

void KvMemoryChart::setMemory(KvMemory memory)
{
    memory_ = std::move(memory);
    QStringList lines;
    for (const KvHeadsRow& r : memory_.rows)
        lines << tr("%1 key/value heads%2: %3 at %4 tokens")
                     .arg(r.kv_heads)
                     .arg(r.is_config ? tr(" (the config's)") : QString())
                     .arg(kvBytesText(static_cast<double>(r.bytes)))
                     .arg(memory_.context);
    setAccessibleDescription(lines.isEmpty() ? memory_.error : lines.join(QStringLiteral("; ")));
    update();
}

QSize KvMemoryChart::sizeHint() const
{
    const int px = QFontInfo(font()).pixelSize();
    return {px * 40, px * 20};
}

KvMemoryPainter KvMemoryChart::chartPainter() const
{
    return KvMemoryPainter(memory_, QFontInfo(font()).pixelSize());
}

void KvMemoryChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    chartPainter().paint(p, chartRect(), RenderStyle::fromPalette(palette(), QPalette::Base));
}

} // namespace attnlab::ui
