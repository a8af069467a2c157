// The wrapper-vs-integrated view, checked through its painter (pixels) and the real main window:
// head slices wear the stepper's head colours, the totals shown are PyTorch's, the matched-width
// wrapper explains why it cannot exist, and the equivalence shown is below 1e-5.
#include "render/design_layout_painter.h"
#include "render/render_style.h"
#include "features/designs/design_layout_widget.h"
#include "features/designs/designs_view.h"
#include "features/designs/equivalence_job.h"
#include "render/head_colors.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "common/layout_checks.h"

#include <QLabel>
#include <QPainter>
#include <QtTest>

#include <set>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const QString kGpt2 = QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)");

DesignComparison comparisonOf(const QString& call)
{
    return compare_designs(*parse_call(call.toStdString()).config);
}

QImage render(const DesignLayoutPainter& painter, QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    painter.paint(p, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

QRgb at(const QImage& image, QPointF point)
{
    return image.pixel(point.toPoint()) | 0xff000000;
}

const DesignFooterLine* totalLine(const std::vector<DesignFooterLine>& lines)
{
    for (const auto& l : lines)
        if (l.left == QLatin1String("parameters"))
            return &l;
    return nullptr;
}

} // namespace

class TestUiDesigns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void headSlicesWearTheStepperHeadColours()
    {
        const DesignLayoutPainter painter(comparisonOf(kGpt2));
        const QSize size(1230, 720);
        const QImage image = render(painter, size);
        const DesignGeometry g = painter.geometry(QRectF(QPointF(0, 0), QSizeF(size)));
        QVERIFY(g.scale > 0);
        int querySlices = 0, wrapperHeads = 0;
        std::set<QRgb> colours;
        for (const DesignShape& s : g.shapes) {
            if (s.kind == DesignShape::Kind::Slice && s.column == 0 && s.name == QLatin1String("W_query.weight")) {
                QCOMPARE(s.slicedAxis, 0); // rows of W_query: what view hands each head
                QCOMPARE(at(image, s.rect.center()), headColor(s.head, 12).rgb());
                colours.insert(at(image, s.rect.center()));
                ++querySlices;
            }
            if (s.kind == DesignShape::Kind::Weight && s.column == 1 && s.role == Role::Key) {
                QCOMPARE(at(image, s.rect.center()), headColor(s.head, 12).rgb());
                ++wrapperHeads;
            }
        }
        QCOMPARE(querySlices, 12);
        QCOMPARE(wrapperHeads, 12);
        QCOMPARE(static_cast<int>(colours.size()), 12); // twelve heads, twelve colours
        // To scale: the integrated W_query and the matched-width wrapper's 12 W_query blocks cover the same
        // area; the same-call wrapper's are 12 times larger in total.
        double integrated = 0, matched = 0, sameCall = 0;
        for (const DesignShape& s : g.shapes)
            if (s.kind == DesignShape::Kind::Weight && s.role == Role::Query)
                (s.column == 0 ? integrated : s.column == 1 ? sameCall : matched) += s.rect.width() * s.rect.height();
        QVERIFY(std::abs(matched / integrated - 1.0) < 1e-9);
        QVERIFY(std::abs(sameCall / integrated - 12.0) < 1e-9);
    }

    void totalsShownAreThoseOfPyTorchForGpt2Small()
    {
        Session session;
        MainWindow window(&session);
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        const DesignLayoutPainter& painter = window.designsView()->layoutWidget()->designPainter();
        QVERIFY(painter.valid());
        const QStringList expected = {QStringLiteral("2,360,064"), QStringLiteral("21,233,664"),
                                      QStringLiteral("1,769,472")};
        for (int c = 0; c < 3; ++c) {
            const auto lines = painter.footerLines(painter.comparison().designs[static_cast<std::size_t>(c)]);
            const DesignFooterLine* total = totalLine(lines);
            QVERIFY(total);
            QCOMPARE(total->right, expected[c]);
        }
        // The same call as a wrapper is 9,216 wide: the trap, drawn in red.
        const auto wrapper = painter.footerLines(painter.comparison().designs[1]);
        QVERIFY(wrapper.back().trap);
        QVERIFY2(wrapper.back().left.startsWith(QStringLiteral("output width 9,216")), qPrintable(wrapper.back().left));
        QVERIFY(!painter.footerLines(painter.comparison().designs[0]).back().trap);
    }

    void matchedWidthColumnExplainsItselfFor770Over12()
    {
        Session session;
        MainWindow window(&session);
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        session.document()->setSlot(Slot::d_out, 770);
        const DesignLayoutPainter& painter = window.designsView()->layoutWidget()->designPainter();
        const DesignLayout& matched = painter.comparison().designs[2];
        QVERIFY(!matched.exists);
        QVERIFY2(QString::fromStdString(matched.why_not).contains(QStringLiteral("770 / 12")), matched.why_not.c_str());
        QVERIFY(painter.footerLines(matched).empty());
        QVERIFY(painter.comparison().designs[1].exists); // the same-call wrapper still builds: 12 heads of 770
        QCOMPARE(painter.comparison().designs[1].output_width, 9240);
        // The reason is drawn where the blocks would be: a red-framed box in the column's body.
        const QSize size(1230, 720);
        const QImage image = render(painter, size);
        const DesignColumn col = painter.geometry(QRectF(QPointF(0, 0), QSizeF(size))).columns[2];
        QCOMPARE(at(image, QPointF(col.body.right() - 8, col.body.top() + col.body.height() / 2)),
                 RenderStyle::print().differsFill.rgb());
        QVERIFY(window.designsView()->equivalenceLabel()->text().contains(QStringLiteral("no matched-width wrapper")));
    }

    void equivalenceShownIsBelowTolerance()
    {
        Session session;
        MainWindow window(&session);
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        session.view()->setTab(ViewMode::Designs);
        window.show();
        DesignsView* view = window.designsView();
        QVERIFY(view->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!session.feature<DesignsState>()->equivalencePending(), 30000);
        const auto result = session.feature<DesignsState>()->equivalence()->result();
        QVERIFY2(result, qPrintable(session.feature<DesignsState>()->equivalence()->error()));
        QVERIFY(result->max_abs_diff < 1e-5);
        QCOMPARE(static_cast<int>(result->heads.size()), 12);
        QCOMPARE(result->heads[3].row_begin, 192); // head 3 owns rows 192..255 of W_query
        const QString text = view->equivalenceLabel()->text();
        QVERIFY2(text.contains(QString::number(result->max_abs_diff, 'e', 2)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("✓ equal")));
        QVERIFY(text.contains(QStringLiteral("head&nbsp;3:&nbsp;rows&nbsp;192–255")));

        // 1,024 tokens: the check is capped, so the GUI is never held up, and says so.
        session.document()->setInputShape(1, 1024);
        QTRY_VERIFY_WITH_TIMEOUT(!session.feature<DesignsState>()->equivalencePending(), 30000);
        QCOMPARE(session.feature<DesignsState>()->equivalence()->checkedSpec().num_tokens, EquivalenceJob::kMaxTokens);
        QVERIFY(session.feature<DesignsState>()->equivalence()->result()->max_abs_diff < 1e-5);
        QVERIFY(view->equivalenceLabel()->text().contains(QStringLiteral("the first 32 tokens")));
    }

    // The Equivalence sentence and its twelve heads' rows read whole at 1600x1000 (it was cut, with no scroll bar
    // to reach the rest): as tall as its wrapped lines, and in view or reachable by scrolling.
    void equivalenceReadsWholeAtTheDesk()
    {
        Session session;
        MainWindow window(&session);
        window.resize(1600, 1000);
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        session.view()->setTab(ViewMode::Designs);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(!session.feature<DesignsState>()->equivalencePending(), 30000);
        QLabel* label = window.designsView()->equivalenceLabel();
        QTRY_VERIFY(label->text().contains(QStringLiteral("head&nbsp;11")));
        QCoreApplication::processEvents();
        QVERIFY2(
            label->height() >= label->heightForWidth(label->width()),
            qPrintable(QStringLiteral("%1 px for %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
        QVERIFY2(testing::clippedReason(label, &window).isEmpty(), qPrintable(testing::clippedReason(label, &window)));
    }

    void hiddenViewDoesNotCompute()
    {
        Session session;
        MainWindow window(&session);
        window.show();
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        QVERIFY(!window.designsView()->isVisible());
        QVERIFY(!session.feature<DesignsState>()->equivalence()->busy()); // no work for a tab nobody looks at
        session.view()->setTab(ViewMode::Designs);
        QTRY_VERIFY_WITH_TIMEOUT(session.feature<DesignsState>()->equivalence()->result() != nullptr, 30000);
    }
};

QTEST_MAIN(TestUiDesigns)
#include "test_ui_designs.moc"
