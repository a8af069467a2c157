#pragma once
// Which tab is shown: the Session's to hold, the page registry's (pages/page_registry.h) to give a page,
// a title and an id. One value per row of the registry, in the same order (page_registry.cpp checks it).
namespace attnlab::ui {

enum class ViewMode { Stepper, Heatmaps, Debug, Designs, Tradeoffs, Overview };

} // namespace attnlab::ui
