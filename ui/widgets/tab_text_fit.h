#pragma once
// Tab rows that fit: a tab widget whose row is wider than its room scrolls, and then starts mid-word
// ("atmaps, per head") with the current tab's neighbours cut at both ends. Each tab here has its texts from
// the longest to the shortest ("① Step through the forward pass", "① Forward pass", "① Forward"); the row
// takes the longest level at which every tab fits, again whenever its width or type changes (presentation
// mode, a dock opening). The longest text stays the tab's accessible name and, where it has none, its tooltip.
#include <QStringList>

class QTabWidget;

namespace attnlab::ui {

// texts[i]: tab i's texts, longest first (one text: the tab never changes). Call after the tabs are added.
// currentKeepsName: at the shortest level (numbers only, "①") the current tab keeps the level before
// ("① Forward"), so the row still says where the user is.
void fitTabTexts(QTabWidget* tabs, const QList<QStringList>& texts, bool currentKeepsName = false);

// Whether every tab of `tabs` lies wholly inside its bar, with no scrolling (tests and the fitter).
bool tabRowFits(const QTabWidget* tabs);

} // namespace attnlab::ui
