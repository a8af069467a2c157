#pragma once
// How the app looks on a projector: presentation mode (full screen, larger type), zoom of the whole
// UI, a high-contrast palette and the System / Light / Dark theme. Qt 6.4 has no colour-scheme hint,
// so themes are palettes; System hands the palette back to the platform. Choices persist (QSettings).
#include <QObject>
#include <QPalette>
#include <QStringList>

#include <optional>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;
class QShortcut;
class QWidget;

namespace attnlab::ui {

enum class Theme { System, Light, Dark };

// What --theme names: a theme and whether the high-contrast palette is on top of it.
struct ThemeChoice {
    Theme theme = Theme::System;
    bool highContrast = false;
};
std::optional<ThemeChoice> themeNamed(const QString& name); // light, dark, high-contrast, system
QStringList themeNames();

class PresentationMode : public QObject {
    Q_OBJECT
public:
    static constexpr double kPresentationScale = 1.4; // type size in presentation mode, on top of zoom
    static constexpr double kZoomStep = 1.15;

    explicit PresentationMode(QMainWindow* window, QObject* parent = nullptr);
    void populateMenu(QMenu* view); // Presentation, zoom, high contrast, theme
    // A column hidden while presenting, so the stage and the heatmaps get the whole projector
    // (the call line above them still says every setting).
    void setSidePanel(QWidget* panel);
    // While the settings are in error the side panel holds what is wrong and its fixes: it stays in
    // view while presenting, and goes again once the settings are fixed.
    void setSidePanelNeeded(bool needed);
    // Likewise while a lesson step points at a setting in it (a spin box, the module box).
    void setSidePanelWanted(bool wanted);

    bool presenting() const { return presenting_; }
    void setPresenting(bool on);
    double zoom() const { return zoom_; }
    void setZoom(double zoom); // clamped to [0.5, 3]
    bool highContrast() const { return highContrast_; }
    void setHighContrast(bool on);
    Theme theme() const { return theme_; }
    void setTheme(Theme theme);
    void useForThisRun(ThemeChoice choice); // --theme: applied, not remembered
    int fontPixelSize() const;              // what the application font is now
    QAction* presentationAction() const { return presentAction_; }

    static QPalette palette(Theme theme, bool highContrast); // for System: the platform's own

Q_SIGNALS:
    // After the window went full screen (or back) and the type changed: what else makes room for the
    // stage follows (the shell hides the menu bar and the text row, the stepper gives its diagram the height).
    void presentingChanged(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyFont();
    void fitSidePanel(); // wide enough for its contents in the type now in use
    void applyPalette();
    void remember() const;

    QMainWindow* window_;
    QShortcut* escape_;
    QWidget* sidePanel_ = nullptr;
    bool sidePanelWasVisible_ = true;
    bool sidePanelNeeded_ = false;
    bool sidePanelWanted_ = false;
    int sidePanelWidth_ = -1; // its own width, at desktop type
    int basePx_;
    double zoom_ = 1.0;
    bool presenting_ = false;
    bool highContrast_ = false;
    bool rememberChoices_ = true; // off while --theme applies its choice
    Theme theme_ = Theme::System;
    Qt::WindowStates stateBefore_;
    QAction* presentAction_;
    QAction* contrastAction_;
    QActionGroup* themes_;
};

} // namespace attnlab::ui
