// Contrast in every theme, in the window: each tab (and each section of a tab that has its own tabs) is
// walked widget by widget, each visible text's foreground against the surface it sits on, style-sheet and
// inline HTML colours included; a theme switch repaints; exports keep their colours. The painters and the
// WCAG maths are test_ui_contrast_painters'.
#include "common/page_walk.h"
#include "common/session_fixtures.h"
#include "common/theme_list.h"
#include "features/stepper/stepper_view.h"
#include "render/render_style.h"
#include "shell/exporters.h"
#include "shell/presentation.h"
#include "features/stepper/source_view.h"
#include "widgets/themed.h"

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::themes;

namespace {

// A surface's colour: the nearest widget (itself or an ancestor) that paints its own background.
QColor surfaceOf(const QWidget* w)
{
    for (const QWidget* a = w; a; a = a->parentWidget())
        if (a->autoFillBackground() || a->styleSheet().contains(QLatin1String("background")) || a->isWindow())
            return a->palette().color(a->backgroundRole());
    return QApplication::palette().color(QPalette::Window);
}

// Inline colours in rich text: each style attribute's colour, against its own background when it has one.
std::vector<std::pair<QColor, QColor>> inlineColours(const QString& html, const QColor& surface)
{
    std::vector<std::pair<QColor, QColor>> out;
    static const QRegularExpression styleAttr(QStringLiteral("style='([^']*)'"));
    static const QRegularExpression color(QStringLiteral("(?:^|[;\\s])color:\\s*(#[0-9a-fA-F]{6})"));
    static const QRegularExpression background(QStringLiteral("background:\\s*(#[0-9a-fA-F]{6})"));
    for (auto it = styleAttr.globalMatch(html); it.hasNext();) {
        const QString css = it.next().captured(1);
        const auto c = color.match(css);
        if (!c.hasMatch())
            continue;
        const auto b = background.match(css);
        out.emplace_back(QColor(c.captured(1)), b.hasMatch() ? QColor(b.captured(1)) : surface);
    }
    return out;
}

} // namespace

class TestUiContrast : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tabs_data()
    {
        QTest::addColumn<QPalette>("palette");
        for (const auto& t : themes())
            QTest::newRow(t.name) << t.palette();
    }
    // Every tab (and every section of a tab that has them) in each theme: visible text against its surface.
    void tabs()
    {
        QFETCH(QPalette, palette);
        const QPalette before = QApplication::palette();
        QApplication::setPalette(palette);
        std::unique_ptr<Session> session;
        std::unique_ptr<MainWindow> window;
        testing::openWindow(session, window, QStringLiteral("book"), QSize(1400, 900));
        int checked = 0;
        QStringList failures;
        auto check = [&](const QString& where, const QColor& ink, const QColor& bg, bool large) {
            ++checked;
            if (contrastRatio(ink, bg) < requiredContrast(large))
                failures << QStringLiteral("%1: %2 on %3 = %4")
                                .arg(where, ink.name(), bg.name())
                                .arg(contrastRatio(ink, bg), 0, 'f', 2);
        };
        auto walk = [&](const QString& tab) {
            QTRY_VERIFY_WITH_TIMEOUT(testing::idle(*session) && !window->pagesBusy(), 30000);
            QTest::qWait(50);
            for (QWidget* w : window->findChildren<QWidget*>()) {
                // WCAG 1.4.3 exempts inactive controls (a greyed-out choice this module lacks).
                if (!w->isVisibleTo(window.get()) || !w->isEnabled())
                    continue;
                const QString where =
                    tab + QLatin1Char('/') +
                    (w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className()) : w->objectName());
                if (auto* label = qobject_cast<QLabel*>(w); label && !label->text().isEmpty()) {
                    const QColor bg = surfaceOf(label);
                    check(where, label->palette().color(label->foregroundRole()), bg, isLargeText(label->font()));
                    for (const auto& [ink, under] : inlineColours(label->text(), bg))
                        check(where + QStringLiteral(" (rich text)"), ink, under, false);
                } else if (auto* button = qobject_cast<QAbstractButton*>(w); button && !button->text().isEmpty()) {
                    check(where, button->palette().color(QPalette::ButtonText),
                          button->palette().color(QPalette::Button), false);
                } else if (auto* list = qobject_cast<QListWidget*>(w)) {
                    for (int i = 0; i < list->count(); ++i) {
                        const QListWidgetItem* item = list->item(i);
                        const QBrush b = item->background(), f = item->foreground();
                        check(where + QStringLiteral(" row %1").arg(i),
                              f.style() != Qt::NoBrush ? f.color() : list->palette().color(QPalette::Text),
                              b.style() != Qt::NoBrush ? b.color() : list->palette().color(QPalette::Base), false);
                    }
                } else if (auto* table = qobject_cast<QTableWidget*>(w)) {
                    for (int r = 0; r < table->rowCount(); ++r)
                        for (int c = 0; c < table->columnCount(); ++c)
                            if (const QTableWidgetItem* item = table->item(r, c)) {
                                const QBrush b = item->background(), f = item->foreground();
                                check(where + QStringLiteral(" cell %1,%2").arg(r).arg(c),
                                      f.style() != Qt::NoBrush ? f.color() : table->palette().color(QPalette::Text),
                                      b.style() != Qt::NoBrush ? b.color() : table->palette().color(QPalette::Base),
                                      false);
                            }
                } else if (auto* source = qobject_cast<SourceView*>(w)) {
                    for (const auto& sel : source->extraSelections())
                        check(where + QStringLiteral(" highlighted line"), sel.format.foreground().color(),
                              sel.format.background().color(), false);
                    check(where, source->palette().color(QPalette::Text), source->palette().color(QPalette::Base),
                          false);
                }
            }
        };
        session->view()->setStageIndex(3);
        for (const testing::PageStop& stop : testing::allPages()) {
            QVERIFY2(testing::showPage(window.get(), stop), stop.name);
            walk(QString::fromUtf8(stop.name));
        }
        // A call with errors: the call line, the diagnostics' cards, the red spin box.
        session->view()->setTab(ViewMode::Stepper);
        session->document()->setCallText(QStringLiteral("MultiHeadAttention(3, 4, 6, 0.0, 3)"));
        QTRY_VERIFY_WITH_TIMEOUT(testing::hasDiagnostic(*session, DiagnosticCode::HeadSplit), 10000);
        walk(QStringLiteral("invalid call"));
        window.reset();
        session.reset();
        QApplication::setPalette(before);
        QVERIFY2(checked > 50, qPrintable(QString::number(checked)));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    }

    // The stepper's painter follows a theme switch made while it is shown.
    void themeSwitchRepaints()
    {
        std::unique_ptr<Session> session;
        std::unique_ptr<MainWindow> window;
        testing::openWindow(session, window, QStringLiteral("book"), QSize(1400, 900));
        auto* source = window->findChild<SourceView*>(QStringLiteral("source-view"));
        QVERIFY(source);
        QVERIFY(!source->extraSelections().isEmpty());
        const QPalette before = QApplication::palette();
        QApplication::setPalette(PresentationMode::palette(Theme::Dark, false));
        QCoreApplication::processEvents();
        const RenderStyle dark =
            RenderStyle::fromPalette(PresentationMode::palette(Theme::Dark, false), QPalette::Base);
        QCOMPARE(source->extraSelections().front().format.background().color(), dark.lineFill);
        QCOMPARE(source->extraSelections().front().format.foreground().color(), dark.lineText);
        // Style-sheet colours follow too: the call line's error state (a call that does not parse), in dark.
        session->document()->setCallText(QStringLiteral("MultiHeadAttention(3, 4,"));
        QTRY_VERIFY_WITH_TIMEOUT(session->document()->callError().has_value(), 10000);
        QCoreApplication::processEvents();
        auto* call = window->findChild<QWidget*>(QStringLiteral("call-line"));
        QVERIFY(call);
        QVERIFY2(call->styleSheet().contains(cssColor(styleFor(call).differsFill)), qPrintable(call->styleSheet()));
        QVERIFY(relativeLuminance(styleFor(call).differsFill) < 0.18); // a dark tint, not the light theme's
        QApplication::setPalette(before);
        QCoreApplication::processEvents();
        QVERIFY(source->extraSelections().front().format.background().color() != dark.lineFill);
    }

    // Exports: in the theme in use by default, in dark ink on white with "Print colours"; either way the
    // window keeps its theme afterwards.
    void exportColours_data()
    {
        QTest::addColumn<bool>("print");
        QTest::newRow("theme in use (dark)") << false;
        QTest::newRow("print colours") << true;
    }
    void exportColours()
    {
        QFETCH(bool, print);
        const QPalette before = QApplication::palette();
        const QPalette darkPalette = PresentationMode::palette(Theme::Dark, false);
        QApplication::setPalette(darkPalette);
        std::unique_ptr<Session> session;
        std::unique_ptr<MainWindow> window;
        testing::openWindow(session, window, QStringLiteral("book"), QSize(1400, 900));
        auto* diagram = window->findChild<QWidget*>(QStringLiteral("shape-diagram"));
        QVERIFY(diagram);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("view.png"));
        QString error;
        QVERIFY2(exportPng(window->stepperView(), path, &error, print ? PictureColours::Print : PictureColours::Theme),
                 qPrintable(error));
        const QImage image(path);
        QVERIFY(!image.isNull());
        const QPoint corner = diagram->mapTo(window->stepperView(), QPoint(4, diagram->height() - 4));
        const QColor expected =
            print ? RenderStyle::printPalette().color(QPalette::Base) : darkPalette.color(QPalette::Base);
        QCOMPARE(image.pixelColor(corner).name(), expected.name());
        QCOMPARE(diagram->palette().color(QPalette::Base).name(), darkPalette.color(QPalette::Base).name());
        window.reset();
        session.reset();
        QApplication::setPalette(before);
    }
};

QTEST_MAIN(TestUiContrast)
#include "test_ui_contrast.moc"
