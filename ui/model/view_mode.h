#pragma once
// Which tab is shown: the index of its row in features/registry.cpp, which gives it a state, a page, a title and an id.
// The tabs that code opens by name (a lesson, "click a head to open it in the heatmaps") have a name here; a tab that
// nobody opens by name needs none (viewNamed() finds any tab by its id).
namespace attnlab::ui {

enum class ViewMode { Stepper, Heatmaps, Debug, Designs, Tradeoffs, Overview };

} // namespace attnlab::ui
