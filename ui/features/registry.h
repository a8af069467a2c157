#pragma once
// The tabs, declared once: a row per folder under features/, each with its state (the feature's jobs, results and part
// of the session file) and its page. The Session creates the states from this table, the window builds its tabs in its
// order, session files and --view name a tab by its id, the window's stage keys ask it where they step, and the tests
// walk it. Adding a tab: its folder under features/ (with a CMakeLists.txt that adds its sources to attnlab_ui) and a
// row here (plus the --view entry of the man page).
#include "model/view_mode.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <span>

class QObject;
class QWidget;

namespace attnlab::ui {

class FeatureState;
struct SessionParts;

struct FeatureInfo {
    const char* id;        // in session files and --view; a saved file keeps it, so it is never renamed
    const char* titleText; // the tab's text, untranslated: title() translates it
    const char* shortText; // shorter texts for a row that is too narrow: "① Forward pass", "① Forward"
    const char* briefText;
    const char* tooltipText; // the tab's tooltip, which is its accessible description
    FeatureState* (*createState)(const SessionParts& parts, QObject* parent);
    QWidget* (*createPage)(FeatureState* state);
    bool stepsStages; // the window-wide stage keys (arrows, Space, PageUp/PageDown) step the stages on it
    // Its part of a session file (its state's saveSection and restoreSection): the top-level key, and the check that
    // reads it before anything is applied (one sentence in *error when it cannot be read); null when it keeps nothing.
    const char* sectionKey;
    bool (*checkSection)(const QJsonObject& file, QString* error);

    QString title() const;
    QStringList titles() const; // title, short, brief, number: the texts the tab row chooses from (tab_text_fit.h)
    QString tooltip() const;
    ViewMode view() const; // the row's index
};

std::span<const FeatureInfo> featureRegistry();
const FeatureInfo& featureInfo(ViewMode view);
std::optional<ViewMode> viewNamed(const QString& id);
QStringList pageIds();    // in the tabs' order
QString pageIdsInWords(); // "stepper, heatmaps, debug, designs or tradeoffs", as --help lists them

} // namespace attnlab::ui
