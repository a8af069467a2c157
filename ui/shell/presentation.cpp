#include "shell/presentation.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QEvent>
#include <QFontInfo>
#include <QMainWindow>
#include <QLayout>
#include <QMenu>
#include <QSettings>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x26, 0x28, 0x2c), base(0x1c, 0x1d, 0x20), text(0xe8, 0xe8, 0xe8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x33, 0x35, 0x3a));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7a, 0xb8, 0xff));
    p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4d));
    p.setColor(QPalette::Mid, QColor(0x3a, 0x3c, 0x41));
    p.setColor(QPalette::Dark, QColor(0x15, 0x16, 0x18));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

// Pure black and white with one strong accent: the most legible palette from the back of a room.
QPalette contrastPalette(bool dark)
{
    const QColor bg = dark ? Qt::black : Qt::white, fg = dark ? Qt::white : Qt::black;
    const QColor accent = dark ? QColor(0xff, 0xd6, 0x00) : QColor(0x00, 0x2f, 0xa7);
    QPalette p(fg, bg, fg, fg, fg, fg, fg, bg, bg); // windowText, button, light, dark, mid, text, bright, base, window
    p.setColor(QPalette::ButtonText, fg);
    p.setColor(QPalette::Button, bg);
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, dark ? Qt::black : Qt::white);
    p.setColor(QPalette::Link, accent);
    p.setColor(QPalette::ToolTipBase, bg);
    p.setColor(QPalette::ToolTipText, fg);
    p.setColor(QPalette::PlaceholderText, fg);
    // Greyed out, still legible (3:1): without its own disabled colours a disabled control looks live.
    const QColor disabled = dark ? QColor(0x9a, 0x9a, 0x9a) : QColor(0x6e, 0x6e, 0x6e);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::PlaceholderText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

QStringList themeNames()
{
    return {QStringLiteral("light"), QStringLiteral("dark"), QStringLiteral("high-contrast"), QStringLiteral("system")};
}

std::optional<ThemeChoice> themeNamed(const QString& name)
{
    if (name == QLatin1String("light"))
        return ThemeChoice{Theme::Light, false};
    if (name == QLatin1String("dark"))
        return ThemeChoice{Theme::Dark, false};
    if (name == QLatin1String("high-contrast")) // black on white: what a projector in a lit room shows best
        return ThemeChoice{Theme::Light, true};
    if (name == QLatin1String("system"))
        return ThemeChoice{Theme::System, false};
    return std::nullopt;
}

PresentationMode::PresentationMode(QMainWindow* window, QObject* parent)
    : QObject(parent), window_(window), basePx_(std::max(QApplication::font().pixelSize(), 12))
{
    presentAction_ = new QAction(tr("&Presentation Mode"), this);
    presentAction_->setCheckable(true);
    presentAction_->setShortcut(Qt::Key_F5);
    presentAction_->setToolTip(
        tr("Full screen with larger type; PageDown and PageUp step the stages (F5 or Esc leaves)."));
    connect(presentAction_, &QAction::toggled, this, &PresentationMode::setPresenting);
    // Esc leaves presentation mode (and only then: elsewhere it stays free for dialogs, editors and
    // the main window, where it cancels a computation).
    escape_ = new QShortcut(QKeySequence(Qt::Key_Escape), window_);
    escape_->setEnabled(false);
    connect(escape_, &QShortcut::activated, this, [this] { setPresenting(false); });

    contrastAction_ = new QAction(tr("&High Contrast"), this);
    contrastAction_->setCheckable(true);
    contrastAction_->setToolTip(tr("Pure black and white with one strong accent colour, for projectors."));
    connect(contrastAction_, &QAction::toggled, this, &PresentationMode::setHighContrast);

    themes_ = new QActionGroup(this);
    const std::pair<Theme, QString> names[] = {
        {Theme::System, tr("&System")}, {Theme::Light, tr("&Light")}, {Theme::Dark, tr("&Dark")}};
    for (const auto& [theme, name] : names) {
        auto* a = themes_->addAction(name);
        a->setCheckable(true);
        a->setData(static_cast<int>(theme));
        a->setToolTip(tr("Use the %1 colour theme.").arg(QString(name).remove(QLatin1Char('&')).toLower()));
        connect(a, &QAction::triggered, this, [this, theme = theme] { setTheme(theme); });
    }

    QSettings settings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab"));
    zoom_ = std::clamp(settings.value(QStringLiteral("view/zoom"), 1.0).toDouble(), 0.5, 3.0);
    theme_ = static_cast<Theme>(std::clamp(settings.value(QStringLiteral("view/theme"), 0).toInt(), 0, 2));
    highContrast_ = settings.value(QStringLiteral("view/highContrast"), false).toBool();
    contrastAction_->setChecked(highContrast_);
    themes_->actions().at(static_cast<int>(theme_))->setChecked(true);
    if (theme_ != Theme::System || highContrast_)
        applyPalette();
    if (zoom_ != 1.0)
        applyFont();
}

void PresentationMode::populateMenu(QMenu* view)
{
    view->addAction(presentAction_);
    auto* zoomIn = view->addAction(tr("Zoom &In"), this, [this] { setZoom(zoom_ * kZoomStep); });
    zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence::ZoomIn});
    zoomIn->setToolTip(tr("Make all text in the window larger."));
    auto* zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { setZoom(zoom_ / kZoomStep); });
    zoomOut->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence::ZoomOut});
    zoomOut->setToolTip(tr("Make all text in the window smaller."));
    auto* reset = view->addAction(tr("&Actual Size"), this, [this] { setZoom(1.0); });
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    reset->setToolTip(tr("Return the text to its normal size."));
    view->addSeparator();
    view->addAction(contrastAction_);
    QMenu* theme = view->addMenu(tr("&Theme"));
    theme->setToolTip(tr("Follow the system's colours, or pick light or dark."));
    theme->addActions(themes_->actions());
    view->menuAction()->setToolTip(tr("How the window looks."));
}

void PresentationMode::setPresenting(bool on)
{
    if (on == presenting_)
        return;
    presenting_ = on;
    presentAction_->setChecked(on);
    escape_->setEnabled(on);
    if (on) {
        stateBefore_ = window_->windowState();
        window_->setWindowState(stateBefore_ | Qt::WindowFullScreen);
        if (sidePanel_) {
            sidePanelWasVisible_ = !sidePanel_->isHidden();
            sidePanel_->setVisible(sidePanelNeeded_ || sidePanelWanted_);
        }
    } else {
        window_->setWindowState(stateBefore_ & ~Qt::WindowFullScreen);
        if (sidePanel_)
            sidePanel_->setVisible(sidePanelWasVisible_);
    }
    applyFont();
    Q_EMIT presentingChanged(on);
}

void PresentationMode::setSidePanel(QWidget* panel)
{
    sidePanel_ = panel;
    if (auto* area = qobject_cast<QScrollArea*>(panel); area && area->widget())
        area->widget()->installEventFilter(this);
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event)
{
    // The column's contents ask for more width after the type changed too: a diagnostic card coming
    // (the wrapper's width note), a longer label. It widens with them, once their layout has settled.
    if (event->type() == QEvent::LayoutRequest)
        QMetaObject::invokeMethod(this, &PresentationMode::fitSidePanel, Qt::QueuedConnection);
    return QObject::eventFilter(watched, event);
}

void PresentationMode::fitSidePanel()
{
    // The column's width was chosen for desktop type; in larger type its spin boxes would be cut at its
    // right edge, so it widens to what its contents ask, and goes back to its own width afterwards.
    auto* area = qobject_cast<QScrollArea*>(sidePanel_);
    if (!area || !area->widget())
        return;
    if (sidePanelWidth_ < 0)
        sidePanelWidth_ = area->width();
    if (auto* layout = area->widget()->layout())
        layout->activate();
    const int wanted = area->widget()->minimumSizeHint().width() + area->verticalScrollBar()->sizeHint().width() +
                       area->frameWidth() * 2;
    if (const int width = std::max(sidePanelWidth_, wanted);
        area->minimumWidth() != width || area->maximumWidth() != width)
        area->setFixedWidth(width);
}

void PresentationMode::setSidePanelNeeded(bool needed)
{
    sidePanelNeeded_ = needed;
    if (presenting_ && sidePanel_)
        sidePanel_->setVisible(sidePanelNeeded_ || sidePanelWanted_);
    fitSidePanel();
}

void PresentationMode::setSidePanelWanted(bool wanted)
{
    sidePanelWanted_ = wanted;
    if (presenting_ && sidePanel_)
        sidePanel_->setVisible(sidePanelNeeded_ || sidePanelWanted_);
    fitSidePanel();
}

void PresentationMode::setZoom(double zoom)
{
    zoom_ = std::clamp(zoom, 0.5, 3.0);
    if (std::abs(zoom_ - 1.0) < 0.01)
        zoom_ = 1.0;
    applyFont();
    remember();
}

void PresentationMode::setHighContrast(bool on)
{
    highContrast_ = on;
    contrastAction_->setChecked(on);
    applyPalette();
    remember();
}

void PresentationMode::useForThisRun(ThemeChoice choice)
{
    rememberChoices_ = false; // a command line's choice is for this run; later menu choices persist
    highContrast_ = choice.highContrast;
    contrastAction_->setChecked(choice.highContrast);
    setTheme(choice.theme);
    rememberChoices_ = true;
}

void PresentationMode::setTheme(Theme theme)
{
    theme_ = theme;
    themes_->actions().at(static_cast<int>(theme))->setChecked(true);
    applyPalette();
    remember();
}

int PresentationMode::fontPixelSize() const
{
    return QApplication::font().pixelSize();
}

QPalette PresentationMode::palette(Theme theme, bool highContrast)
{
    const bool systemDark = QPalette().color(QPalette::Window).lightness() < 128;
    if (highContrast)
        return contrastPalette(theme == Theme::Dark || (theme == Theme::System && systemDark));
    switch (theme) {
    case Theme::Light: return QApplication::style()->standardPalette();
    case Theme::Dark: return darkPalette();
    case Theme::System: break;
    }
    return QPalette(); // no roles set: Qt resolves it against the platform's palette
}

void PresentationMode::applyFont()
{
    QFont font = QApplication::font();
    const double scale = zoom_ * (presenting_ ? kPresentationScale : 1.0);
    font.setPixelSize(std::max(8, static_cast<int>(std::lround(basePx_ * scale))));
    QApplication::setFont(font);
    // A widget whose own style sheet has a rule for it keeps the type it was polished in (the first
    // divergence's verdict stayed at desktop size in presentation type): polished again, it takes the new
    // type. Only those that did not follow (cleared and set again, a sheet gives back the type the widget had
    // before it was first polished), and not those whose sheet sets a type of its own.
    for (QWidget* w : QApplication::allWidgets())
        if (const QString sheet = w->styleSheet(); !sheet.isEmpty() && !sheet.contains(QLatin1String("font")) &&
                                                   QFontInfo(w->font()).pixelSize() != font.pixelSize())
            w->setStyleSheet(sheet);
    // Once the column's widgets have taken the new type and their layouts asked for their new sizes.
    QMetaObject::invokeMethod(this, &PresentationMode::fitSidePanel, Qt::QueuedConnection);
}

void PresentationMode::applyPalette()
{
    QApplication::setPalette(palette(theme_, highContrast_));
}

void PresentationMode::remember() const
{
    if (!rememberChoices_)
        return;
    QSettings settings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab"));
    settings.setValue(QStringLiteral("view/zoom"), zoom_);
    settings.setValue(QStringLiteral("view/theme"), static_cast<int>(theme_));
    settings.setValue(QStringLiteral("view/highContrast"), highContrast_);
}

} // namespace attnlab::ui
