// The window's room on classroom screens, as arithmetic: the geometry it opens at for a screen's
// available room and the window manager's frame, and a remembered geometry kept on a smaller screen.
// Pure functions of rectangles (shell/screen_fit.h), checked without a window; test_ui_screens checks
// the window itself on those screens.
#include "shell/screen_fit.h"

#include <QtTest>

using namespace attnlab::ui;

class TestUiScreensGeometry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fittedGeometry_data()
    {
        QTest::addColumn<QSize>("preferred");
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QMargins>("frame");
        QTest::addColumn<QRect>("expected");
        const QSize designed = kDesignedWindowSize;
        QTest::newRow("1280x720 projector")
            << designed << QRect(0, 0, 1280, 720) << QMargins() << QRect(0, 0, 1280, 720);
        QTest::newRow("1366x768 laptop, 32 px panel at the top")
            << designed << QRect(0, 32, 1366, 736) << QMargins() << QRect(0, 32, 1366, 736);
        QTest::newRow("1920x1080 monitor: designed size, centred")
            << designed << QRect(0, 0, 1920, 1080) << QMargins() << QRect(160, 40, 1600, 1000);
        QTest::newRow("second monitor right of the first")
            << designed << QRect(1920, 0, 1920, 1080) << QMargins() << QRect(2080, 40, 1600, 1000);
        QTest::newRow("title bar and borders taken off the room")
            << designed << QRect(0, 0, 1366, 768) << QMargins(4, 30, 4, 4) << QRect(4, 30, 1358, 734);
        QTest::newRow("only the height too small")
            << designed << QRect(0, 0, 1680, 900) << QMargins() << QRect(40, 0, 1600, 900);
        QTest::newRow("a small dialog-sized preference stays small")
            << QSize(400, 300) << QRect(0, 0, 1280, 720) << QMargins() << QRect(440, 210, 400, 300);
    }

    void fittedGeometry()
    {
        QFETCH(QSize, preferred);
        QFETCH(QRect, available);
        QFETCH(QMargins, frame);
        QFETCH(QRect, expected);
        const QRect got = fittedWindowGeometry(preferred, available, frame);
        QCOMPARE(got, expected);
        QVERIFY(available.contains(got.marginsAdded(frame)));
    }

    void keptWithin_data()
    {
        QTest::addColumn<QRect>("remembered");
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("expected");
        QTest::newRow("already inside: untouched")
            << QRect(100, 50, 800, 600) << QRect(0, 0, 1280, 720) << QRect(100, 50, 800, 600);
        QTest::newRow("from a 1920 monitor onto a 1280 projector")
            << QRect(160, 40, 1600, 1000) << QRect(0, 0, 1280, 720) << QRect(0, 0, 1280, 720);
        QTest::newRow("hanging off the right edge: moved back")
            << QRect(1000, 100, 800, 500) << QRect(0, 0, 1366, 768) << QRect(566, 100, 800, 500);
        QTest::newRow("above a top panel: moved down")
            << QRect(10, 0, 800, 500) << QRect(0, 32, 1366, 736) << QRect(10, 32, 800, 500);
        QTest::newRow("grown by a dock past the screen")
            << QRect(0, 0, 1836, 1000) << QRect(0, 0, 1600, 1000) << QRect(0, 0, 1600, 1000);
    }

    void keptWithin()
    {
        QFETCH(QRect, remembered);
        QFETCH(QRect, available);
        QFETCH(QRect, expected);
        QCOMPARE(attnlab::ui::keptWithin(remembered, available), expected);
    }
};

QTEST_APPLESS_MAIN(TestUiScreensGeometry)
#include "test_ui_screens_geometry.moc"
