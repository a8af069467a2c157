#pragma once
// The widgets' side of the render style: colours for style sheets and rich text taken from the same
// RenderStyle the painters use, and a hook that re-applies them when the theme (the palette) changes,
// for widgets that bake colours into style sheets, item brushes or HTML.
#include "render/render_style.h"

#include <functional>

class QWidget;

namespace attnlab::ui {

// The style of the surface `widget` sits on: its parent's palette, since a style sheet on the widget
// itself would feed back into its own colours.
RenderStyle styleFor(const QWidget* widget);
QString cssColor(const QColor& color); // "#rrggbb", for style sheets and HTML
// Calls `refresh` after every palette change of `widget` (a theme switch); `widget` owns the hook.
void followPalette(QWidget* widget, std::function<void()> refresh);

} // namespace attnlab::ui
