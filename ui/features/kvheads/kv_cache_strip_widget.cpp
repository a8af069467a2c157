#include "features/kvheads/kv_cache_strip_widget.h"

#include <QEvent>
#include <QFontInfo>
#include <QPainter>

#include <cmath>

namespace attnlab::ui {

KvCacheStripWidget::KvCacheStripWidget(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(tr("The KV cache, per layer"));
}

void KvCacheStripWidget::setStrip(KvCacheStrip strip)
{
    strip_ = std::move(strip);
    setAccessibleDescription(tr("%1 layers, each caching the keys and values of %2 tokens; the last step added %3.")
                                 .arg(strip_.layers)
                                 .arg(strip_.tokens.size())
                                 .arg(strip_.tokens.size() - strip_.newFrom));
    updateGeometry();
    update();
}

KvCacheStripPainter KvCacheStripWidget::stripPainter() const
{
    return KvCacheStripPainter(strip_, QFontInfo(font()).pixelSize());
}

QSize KvCacheStripWidget::sizeHint() const
{
    return {600, static_cast<int>(std::ceil(stripPainter().preferredHeight()))};
}

void KvCacheStripWidget::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange)
        updateGeometry(); // presentation mode: taller rows
    QWidget::changeEvent(event);
}

void KvCacheStripWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    stripPainter().paint(p, QRectF(rect()).adjusted(4, 2, -4, -2), RenderStyle::fromPalette(palette(), QPalette::Base));
}

} // namespace attnlab::ui
