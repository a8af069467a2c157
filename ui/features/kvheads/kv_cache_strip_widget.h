#pragma once
// The stepped cache on screen: a thin widget around KvCacheStripPainter at the window's type size, as tall as the
// model's layers need.
#include "features/kvheads/kv_cache_strip_painter.h"

#include <QWidget>

namespace attnlab::ui {

class KvCacheStripWidget : public QWidget {
    Q_OBJECT
public:
    explicit KvCacheStripWidget(QWidget* parent = nullptr);
    void setStrip(KvCacheStrip strip);
    KvCacheStripPainter stripPainter() const; // as drawn now
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {300, sizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    KvCacheStrip strip_;
};

} // namespace attnlab::ui
