// The overview's grid of heads, as a keyboard user and a projector see it: the arrow keys, Home and End
// walk the heads with the accessible name saying which head and what it does, Enter opens one in the
// heatmaps, and the thumbnails grow with the space the tab has (a deep model scrolls instead of shrinking).
#include "common/session_fixtures.h"
#include "model/model_job.h"
#include "common/session_parts.h"
#include "features/overview/head_grid_widget.h"
#include "features/overview/overview_state.h"
#include "features/overview/overview_view.h"
#include "render/colormap.h"
#include "shell/presentation.h"
#include "shell/open_model_dialog.h"
#include "widgets/heatmap_widget.h"

#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const QString kTiny = QStringLiteral(ATTNLAB_TEST_DATA_DIR "/gpt2/hf-f32"); // 3 layers x 2 heads

bool openTiny(Session& s)
{
    s.trace()->setInputText(QStringLiteral("The cat sat. The cat"));
    OpenModelDialog dialog(&s, kTiny);
    if (!dialog.usable())
        return false;
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    dialog.openChosen();
    return opened.wait(30000) && testing::waitUntilSettled(s) && s.trace()->usesOpenedModel();
}

// The overview shown at `size` with the tiny checkpoint's six heads in it.
bool showTiny(Session& s, OverviewView& view, QSize size)
{
    view.resize(size);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return false;
    s.view()->setTab(ViewMode::Overview);
    return openTiny(s) &&
           QTest::qWaitFor([&view] { return view.grid()->painter().cells().size() == std::size_t(6); }, 30000);
}

int thumbnailWidth(OverviewView& view, QSize size)
{
    view.resize(size);
    QCoreApplication::processEvents();
    QTest::qWait(50);
    QCoreApplication::processEvents();
    return view.grid()->cellRect(0).width();
}

} // namespace

class TestUiOverviewGrid : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keyboard_walks_and_opens_heads();
    void thumbnails_take_the_space();
    void fitting_thumbnail_data();
    void fitting_thumbnail();
    void masked_half_is_the_heatmaps_hatch();
    void detail_takes_what_the_grid_leaves();
};

void TestUiOverviewGrid::keyboard_walks_and_opens_heads()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    QVERIFY(showTiny(s, view, {900, 700}));
    HeadGridWidget* grid = view.grid();
    QVERIFY(grid->focusPolicy() & Qt::TabFocus);
    grid->setFocus();
    QCOMPARE(grid->current(), 0); // the Session's layer 0, head 0
    QVERIFY2(grid->accessibleName().contains(QStringLiteral("layer 0 head 0: previous token")),
             qPrintable(grid->accessibleName()));
    QTest::keyClick(grid, Qt::Key_Right);
    QCOMPARE(grid->current(), 1);
    QTest::keyClick(grid, Qt::Key_Down); // a row is a layer's two heads
    QCOMPARE(grid->current(), 3);
    QTest::keyClick(grid, Qt::Key_Right);
    QTest::keyClick(grid, Qt::Key_Right);
    QCOMPARE(grid->current(), 5);
    QTest::keyClick(grid, Qt::Key_Right); // past the last head: stays
    QCOMPARE(grid->current(), 5);
    QTest::keyClick(grid, Qt::Key_Home);
    QCOMPARE(grid->current(), 0);
    QTest::keyClick(grid, Qt::Key_End);
    QCOMPARE(grid->current(), 5);
    const HeadGridCell last = grid->painter().cells()[5]; // a copy: opening the head redraws the grid
    const QString name = grid->accessibleName();
    QVERIFY2(name.contains(QStringLiteral("layer %1 head %2:").arg(last.layer).arg(last.head)), qPrintable(name));
    QVERIFY(!grid->accessibleDescription().isEmpty());
    QSignalSpy opened(grid, &HeadGridWidget::headClicked);
    QTest::keyClick(grid, Qt::Key_Return);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.first().at(0).toInt(), last.layer);
    QCOMPARE(opened.first().at(1).toInt(), last.head);
    QCOMPARE(s.view()->tab(), ViewMode::Heatmaps);
    QVERIFY(testing::waitUntilSettled(s));
    QCOMPARE(s.document()->gptLayer(), last.layer);
    QCOMPARE(s.view()->head(), last.head);
}

// Where the grid is as tall as the tab but leaves its right side (two heads a layer on a wide, low screen; at
// 1280x720 presenting, a Verdict GPT's four heads filled half), the keyboard's head is drawn there enlarged, with
// its tokens; the grid needs no scroll bar; Right moves both. Where the grid fills the width there is no detail.
void TestUiOverviewGrid::detail_takes_what_the_grid_leaves()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    QVERIFY(showTiny(s, view, {1240, 560}));
    QTRY_VERIFY(view.detail()->isVisible());
    HeatmapWidget* detail = view.detail();
    const int px = QFontInfo(view.font()).pixelSize();
    QTRY_VERIFY(detail->heatmap().slice().valid());
    QVERIFY2(detail->layout().matrix.width() >= 12 * px, qPrintable(QString::number(detail->layout().matrix.width())));
    QVERIFY(detail->geometry().right() >= view.width() * 9 / 10);
    QCOMPARE(detail->heatmap().tokens().size(), detail->heatmap().slice().rows); // a label a token
    auto* scroll = view.findChild<QScrollArea*>();
    QVERIFY(scroll && !scroll->horizontalScrollBar()->isVisible() && !scroll->verticalScrollBar()->isVisible());
    QVERIFY(!detail->geometry().intersects(scroll->geometry()));
    QVERIFY2(detail->heatmap().style().title.startsWith(QStringLiteral("L0 H0")),
             qPrintable(detail->heatmap().style().title));
    QVERIFY(detail->heatmap().slice().masked(0, 1) && !detail->heatmap().slice().masked(1, 0));
    view.grid()->setFocus();
    QTest::keyClick(view.grid(), Qt::Key_Right);
    QVERIFY2(detail->heatmap().style().title.startsWith(QStringLiteral("L0 H1")),
             qPrintable(detail->heatmap().style().title));
    // The head's own weights as the core measured them, not another head's or a copy.
    const auto attention = s.feature<OverviewState>()->layerAttention();
    QVERIFY(attention);
    QCOMPARE(detail->heatmap().slice().values, attention->grid[0][1].thumbnail.data());
    view.resize(700, 900); // tall and narrow: the grid takes the width
    QTRY_VERIFY(!view.detail()->isVisible());
}

void TestUiOverviewGrid::thumbnails_take_the_space()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    QVERIFY(showTiny(s, view, {600, 500}));
    const int small = thumbnailWidth(view, {600, 500});
    const int large = thumbnailWidth(view, {1400, 1000});
    QVERIFY2(large > small, qPrintable(QStringLiteral("%1 then %2").arg(small).arg(large)));
    QVERIFY(large >= 150); // two heads a row across 1,400 pixels
    // Every row in view at the large size: three layers fit a thousand pixels.
    QVERIFY(view.grid()->cellRect(5).bottom() < 1000);
}

void TestUiOverviewGrid::fitting_thumbnail_data()
{
    QTest::addColumn<QSize>("space");
    QTest::addColumn<int>("columns");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("least");
    QTest::addColumn<int>("most");
    QTest::newRow("gpt2-small-wide") << QSize(1000, 600) << 12 << 12 << 48 << 80;   // width decides; rows scroll
    QTest::newRow("two-by-four-large") << QSize(1000, 600) << 4 << 2 << 200 << 240; // capped
    QTest::newRow("narrow-floor") << QSize(200, 600) << 12 << 12 << 48 << 48;       // never below the floor
    QTest::newRow("short-window") << QSize(1000, 300) << 4 << 2 << 48 << 110;       // both rows in view
}

void TestUiOverviewGrid::fitting_thumbnail()
{
    QFETCH(QSize, space);
    QFETCH(int, columns);
    QFETCH(int, rows);
    QFETCH(int, least);
    QFETCH(int, most);
    const int px = HeadGridPainter::fittingThumbnail(space, {}, columns, rows, QFont());
    QVERIFY2(px >= least && px <= most, qPrintable(QString::number(px)));
}

// The causal mask's half of a thumbnail is the heatmaps' grey hatch in every theme, never the panel's colour
// (which in Dark made the masked half read as part of the background).
void TestUiOverviewGrid::masked_half_is_the_heatmaps_hatch()
{
    const Tensor weights = Tensor::from_values({3, 3}, {1, 0, 0, 0.5f, 0.5f, 0, 0.2f, 0.3f, 0.5f});
    const QImage thumb = headThumbnail(weights);
    QCOMPARE(qAlpha(thumb.pixel(2, 0)), 0);   // masked: left to the painter
    QCOMPARE(qAlpha(thumb.pixel(0, 2)), 255); // a weight
    for (Theme theme : {Theme::Light, Theme::Dark}) {
        HeadGridCell cell;
        cell.image = thumb;
        cell.title = QStringLiteral("L0 H0");
        const HeadGridPainter painter({cell}, 1, 60);
        const QFont font;
        QImage out(painter.size(font), QImage::Format_RGB32);
        const QPalette palette = PresentationMode::palette(theme, false);
        out.fill(palette.color(QPalette::Window));
        QPainter p(&out);
        p.setFont(font);
        painter.paint(p, RenderStyle::fromPalette(palette, QPalette::Window));
        p.end();
        const QRectF r = painter.cellRect(0, font);
        const QPoint masked(static_cast<int>(r.left() + r.width() / 2 + 25), static_cast<int>(r.top() + 8));
        QVERIFY2(isMaskedColor(out.pixel(masked)), qPrintable(QString::number(out.pixel(masked), 16)));
    }
}

QTEST_MAIN(TestUiOverviewGrid)
#include "test_ui_overview_grid.moc"
