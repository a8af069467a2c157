#pragma once
// The main window's tabs, declared once. The window builds its tabs from this table in its order, session
// files and --view name a tab by its id, the window's stage keys ask it where they step, and the tests walk
// it. Adding a tab: a ViewMode in model/view_mode.h, a row in page_registry.cpp, the page's folder under ui/pages/.
#include "model/view_mode.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <span>

class QWidget;

namespace attnlab::ui {

class Session;

struct PageInfo {
    ViewMode view;
    const char* id;          // in session files and --view; a saved file keeps it, so it is never renamed
    const char* titleText;   // the tab's text, untranslated: title() translates it
    const char* tooltipText; // the tab's tooltip, which is its accessible description
    QWidget* (*create)(Session* session);
    bool stepsStages; // the window-wide stage keys (arrows, Space, PageUp/PageDown) step the stages on it
    // The Session's work this page shows and a picture of it should wait for; null when it shows none.
    bool (*busy)(const Session& session);

    QString title() const;
    QString tooltip() const;
};

std::span<const PageInfo> pageRegistry();
const PageInfo& pageInfo(ViewMode view);
std::optional<ViewMode> viewNamed(const QString& id);
QStringList pageIds();    // in the tabs' order
QString pageIdsInWords(); // "stepper, heatmaps, debug, designs or tradeoffs", as --help lists them

} // namespace attnlab::ui
