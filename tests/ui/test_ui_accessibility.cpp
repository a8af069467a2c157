// Accessibility through QAccessible, as a screen reader sees the window: every control on every page
// has a name and a description; the heatmap is a table of query tokens × key tokens whose cells read
// the trace's values ("masked" where the mask hid a key), made lazily even at 1,024 tokens; the shape
// diagram describes the shapes, strides and contiguity it draws.
#include "common/page_walk.h"
#include "common/session_fixtures.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "features/heatmaps/heatmaps_view.h"
#include "features/stepper/stepper_view.h"
#include "render/heatmap_painter.h"
#include "shell/app_shell.h"
#include "shell/main_window.h"
#include "widgets/heatmap_accessible.h"
#include "widgets/heatmap_widget.h"
#include "features/stepper/shape_diagram_widget.h"

#include <QAccessible>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QString accessibleText(QWidget* w, QAccessible::Text t)
{
    QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(w);
    return iface ? iface->text(t).trimmed() : QString();
}

QString numbers(const Shape& values)
{
    QStringList parts;
    for (auto v : values)
        parts << QString::number(v);
    return "(" + parts.join(", ") + ")";
}

// The controls in `controls` that a screen reader could not name or describe, each said with where it is.
QStringList unnamed(const QList<QWidget*>& controls, const QString& where)
{
    QStringList missing;
    for (QWidget* w : controls) {
        const QString name = accessibleText(w, QAccessible::Name);
        QString description = accessibleText(w, QAccessible::Description);
        // A tab bar speaks for its tabs: each tab has a name and a description of its own.
        if (auto* bar = qobject_cast<QTabBar*>(w)) {
            QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(bar);
            QStringList tabs;
            for (int i = 0; i < bar->count(); ++i) {
                QAccessibleInterface* tab = iface->child(i);
                if (!tab || tab->text(QAccessible::Name).isEmpty() || tab->text(QAccessible::Description).isEmpty())
                    missing << QStringLiteral("tab %1 (%2) of %3").arg(i).arg(bar->tabText(i), testing::nameOf(w));
                else
                    tabs << tab->text(QAccessible::Description);
            }
            description = tabs.join(QLatin1Char(' '));
        }
        // On Linux a combo box's accessible name is its current item; it needs a name of its own.
        const bool named = !name.isEmpty() && (!qobject_cast<QComboBox*>(w) || !w->accessibleName().isEmpty());
        if (!named || description.isEmpty())
            missing << QStringLiteral("%1 on %2: name \"%3\", description \"%4\"")
                           .arg(testing::nameOf(w), where, name, description.left(40));
    }
    return missing;
}

} // namespace

class TestUiAccessibility : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { testing::openWindow(session_, window_, QStringLiteral("book"), {1600, 1000}); }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    void everyControlHasANameAndADescription_data()
    {
        QTest::addColumn<int>("page");
        const auto pages = testing::allPages();
        for (int i = 0; i < static_cast<int>(pages.size()); ++i)
            QTest::newRow(pages[static_cast<std::size_t>(i)].name) << i;
    }

    void everyControlHasANameAndADescription()
    {
        QFETCH(int, page);
        const testing::PageStop stop = testing::allPages()[static_cast<std::size_t>(page)];
        QVERIFY(testing::showPage(window_.get(), stop));
        const QList<QWidget*> controls = testing::visibleControls(window_.get());
        QVERIFY2(controls.size() >= 10, qPrintable(QString::number(controls.size()))); // the walk found the page
        const QStringList missing = unnamed(controls, QString::fromLatin1(stop.name));
        QVERIFY2(missing.isEmpty(), qPrintable("\n" + missing.join("\n")));
    }

    // The Text input's own controls, shown only when a trained model reads a sentence.
    void textInputControlsAreNamed()
    {
        session_->trace()->useTrainedModel(4, 0);
        session_->trace()->setInputText(QStringLiteral("Jack was a painter"));
        QTRY_VERIFY_WITH_TIMEOUT(testing::idle(*session_) && session_->document()->usesTextInput(), 30000);
        QVERIFY(testing::showPage(window_.get(), testing::allPages()[1]));
        const QList<QWidget*> controls = testing::visibleControls(window_.get());
        auto* chips = window_->findChild<QWidget*>(QStringLiteral("text-input-chips"));
        auto* variant = window_->findChild<QWidget*>(QStringLiteral("text-input-variant"));
        QVERIFY(chips && variant && controls.contains(chips) && controls.contains(variant));
        const QStringList missing = unnamed(controls, QStringLiteral("heatmaps with text input"));
        QVERIFY2(missing.isEmpty(), qPrintable("\n" + missing.join("\n")));
        QVERIFY2(accessibleText(chips, QAccessible::Description).contains(QStringLiteral("painter")),
                 qPrintable(accessibleText(chips, QAccessible::Description)));
    }

    // The shell around the window: the guided lessons' dock, opened on a lesson.
    void lessonsDockControlsAreNamed()
    {
        QCommandLineParser parser;
        addShellOptions(parser);
        QVERIFY(parser.parse({"attention-lab", "--guide", "view-transpose"}));
        AppShell shell(window_.get(), session_.get(), parser);
        QTRY_VERIFY(shell.lessonsDock()->isVisible());
        QList<QWidget*> controls;
        for (QWidget* w : testing::visibleControls(window_.get()))
            if (shell.lessonsDock()->isAncestorOf(w))
                controls << w;
        QVERIFY2(controls.size() >= 4, qPrintable(QString::number(controls.size()))); // lesson, steps, text
        const QStringList missing = unnamed(controls, QStringLiteral("the lessons dock"));
        QVERIFY2(missing.isEmpty(), qPrintable("\n" + missing.join("\n")));
    }

    // The selected head's heatmap, read as a table: headers are the tokens, cells the trace's values.
    void heatmapReadsAsATableOfTheTrace_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("stage");
        QTest::addColumn<int>("head");
        QTest::newRow("weights, head 0") << int(AttentionMatrix::Weights) << "attn_weights" << 0;
        QTest::newRow("weights, head 1") << int(AttentionMatrix::Weights) << "attn_weights" << 1;
        QTest::newRow("masked scores, head 1") << int(AttentionMatrix::MaskedScores) << "attn_scores.masked" << 1;
        QTest::newRow("scores, head 0") << int(AttentionMatrix::Scores) << "attn_scores" << 0;
    }

    void heatmapReadsAsATableOfTheTrace()
    {
        QFETCH(int, kind);
        QFETCH(QString, stage);
        QFETCH(int, head);
        session_->view()->setTab(ViewMode::Heatmaps);
        session_->view()->setHeatmapKind(static_cast<AttentionMatrix>(kind));
        session_->view()->setHead(head);
        QApplication::processEvents();
        HeatmapWidget* map = window_->heatmapsView()->selectedHeatmap();
        QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(map);
        QVERIFY(iface);
        QCOMPARE(iface->role(), QAccessible::Table);
        QVERIFY(!iface->text(QAccessible::Name).isEmpty());
        QAccessibleTableInterface* table = iface->tableInterface();
        QVERIFY(table);
        const Stage* s = session_->trace()->trace()->find(stage.toStdString());
        QVERIFY2(s, qPrintable(stage));
        const QStringList tokens = session_->trace()->tokenLabels();
        QCOMPARE(tokens.size(), 6); // "Your journey starts with one step"
        QCOMPARE(table->rowCount(), 6);
        QCOMPARE(table->columnCount(), 6);
        QCOMPARE(iface->childCount(), 36);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(table->rowDescription(i), tokens[i]);
            QCOMPARE(table->columnDescription(i), tokens[i]);
        }
        const int batch = session_->view()->batchIndex();
        int masked = 0;
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 6; ++c) {
                QAccessibleInterface* cell = table->cellAt(r, c);
                QVERIFY(cell);
                QCOMPARE(cell->role(), QAccessible::Cell);
                QCOMPARE(iface->child(r * 6 + c), cell); // the same object however it is reached
                QCOMPARE(iface->indexOfChild(cell), r * 6 + c);
                const float v = s->tensor.at({batch, head, r, c});
                const bool causalMask = c > r; // the book's causal mask hides later keys
                const QString text = cell->text(QAccessible::Value);
                QCOMPARE(cell->text(QAccessible::Name), text);
                if (causalMask && kind != int(AttentionMatrix::Scores)) {
                    ++masked;
                    QVERIFY2(text.startsWith(QStringLiteral("masked")), qPrintable(text));
                    if (std::isinf(v))
                        QCOMPARE(text, QStringLiteral("masked (−∞)"));
                    else
                        QCOMPARE(text, QStringLiteral("masked, %1").arg(formatExact(v)));
                } else {
                    QCOMPARE(text, formatExact(v)); // as the hover readout shows it
                    QVERIFY(!std::isinf(v));
                }
                QVERIFY(cell->text(QAccessible::Description).contains(tokens[r]));
                QAccessibleTableCellInterface* ci = cell->tableCellInterface();
                QVERIFY(ci);
                QCOMPARE(ci->rowIndex(), r);
                QCOMPARE(ci->columnIndex(), c);
                QCOMPARE(ci->table(), iface);
                const auto rowHeaders = ci->rowHeaderCells(), columnHeaders = ci->columnHeaderCells();
                QCOMPARE(rowHeaders.size(), 1);
                QCOMPARE(columnHeaders.size(), 1);
                QCOMPARE(rowHeaders.front()->text(QAccessible::Name), tokens[r]);
                QCOMPARE(rowHeaders.front()->role(), QAccessible::RowHeader);
                QCOMPARE(columnHeaders.front()->text(QAccessible::Name), tokens[c]);
                QVERIFY(cell->rect().isValid() && iface->rect().contains(cell->rect().center()));
            }
        QCOMPARE(masked, kind == int(AttentionMatrix::Scores) ? 0 : 15);
        QVERIFY(!table->cellAt(6, 0) && !table->cellAt(0, 6) && !table->cellAt(-1, 0));
    }

    // A new trace of another size: the same table answers with the new size and the new values.
    void heatmapTableFollowsANewTrace()
    {
        session_->view()->setTab(ViewMode::Heatmaps);
        HeatmapWidget* map = window_->heatmapsView()->selectedHeatmap();
        QAccessibleTableInterface* table = QAccessible::queryAccessibleInterface(map)->tableInterface();
        QAccessibleInterface* old = table->cellAt(5, 5);
        QVERIFY(old && old->isValid());
        session_->document()->setInputShape(2, 4);
        QTRY_VERIFY_WITH_TIMEOUT(testing::idle(*session_) && map->heatmap().slice().rows == 4, 30000);
        table = QAccessible::queryAccessibleInterface(map)->tableInterface();
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->columnCount(), 4);
        const Stage* w = session_->trace()->trace()->find("attn_weights");
        QCOMPARE(table->cellAt(3, 1)->text(QAccessible::Value),
                 formatExact(w->tensor.at({session_->view()->batchIndex(), session_->view()->head(), 3, 1})));
    }

    // GPT-2 small at 1,024 tokens: a million cells, none made until a reader asks for it.
    void heatmapTableIsLazyAtGpt2Size()
    {
        session_->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        session_->document()->setInputShape(1, 1024);
        session_->view()->setTab(ViewMode::Heatmaps);
        QTRY_VERIFY_WITH_TIMEOUT(testing::idle(*session_) && session_->trace()->trace()->config.num_heads == 12 &&
                                     window_->heatmapsView()->selectedHeatmap()->heatmap().slice().rows == 1024,
                                 60000);
        HeatmapWidget* map = window_->heatmapsView()->selectedHeatmap();
        QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(map);
        QAccessibleTableInterface* table = iface->tableInterface();
        QCOMPARE(table->rowCount(), 1024);
        QCOMPARE(table->columnCount(), 1024);
        QCOMPARE(iface->childCount(), 1024 * 1024);
        QCOMPARE(heatmapCellsBuilt(iface), 0);
        const Stage* w = session_->trace()->trace()->find("attn_weights");
        const int head = session_->view()->head();
        QCOMPARE(table->cellAt(1023, 17)->text(QAccessible::Value), formatExact(w->tensor.at({0, head, 1023, 17})));
        QCOMPARE(table->cellAt(17, 1023)->text(QAccessible::Value).left(6), QStringLiteral("masked"));
        QCOMPARE(table->cellAt(1023, 17), iface->child(1023 * 1024 + 17));
        QCOMPARE(heatmapCellsBuilt(iface), 2);
        QCOMPARE(table->columnDescription(1000), session_->trace()->tokenLabels().value(1000, QStringLiteral("1000")));
    }

    // The shape diagram's accessible text: the stage's shape, its strides, what reshaped it, contiguity.
    void shapeDiagramDescribesShapesAndStrides_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("keys") << "keys"
                              << QStringList{"Stage keys: shape (2, 6, 2)", "Strides (12, 2, 1)", "Contiguous.",
                                             "Owns new storage."};
        QTest::newRow("keys.view") << "keys.view" << QStringList{"Stage keys.view: shape (2, 6, 2, 1)",
                                                                 "Strides (12, 2, 1, 1)",
                                                                 "From keys, shape (2, 6, 2), strides (12, 2, 1)",
                                                                 "d_out 2 = 2 heads × 1 features",
                                                                 "Contiguous.",
                                                                 "View of keys: shares its storage"};
        QTest::newRow("keys.heads") << "keys.heads"
                                    << QStringList{"shape (2, 2, 6, 1)", "Strides (12, 1, 2, 1)", "transpose(1, 2)",
                                                   "Not contiguous", "dim 1 num_heads = 2"};
        QTest::newRow("context.merged") << "context.merged"
                                        << QStringList{"shape (2, 6, 2)", "Strides (12, 2, 1)",
                                                       "2 heads × 1 features = d_out 2", "Contiguous."};
    }

    void shapeDiagramDescribesShapesAndStrides()
    {
        QFETCH(QString, stage);
        QFETCH(QStringList, expected);
        QVERIFY(session_->view()->setStageByName(stage));
        ShapeDiagramWidget* diagram = window_->stepperView()->diagram();
        const QString text = accessibleText(diagram, QAccessible::Description);
        for (const QString& part : expected)
            QVERIFY2(text.contains(part), qPrintable(QStringLiteral("'%1' not in: %2").arg(part, text)));
        QVERIFY(!accessibleText(diagram, QAccessible::Name).isEmpty());
        // Whatever the stage, the text carries the trace's own shape and strides.
        const Tensor& t = session_->view()->stage()->tensor;
        QVERIFY(text.contains(QStringLiteral("shape ") + numbers(t.shape())));
        QVERIFY(text.contains(QStringLiteral("Strides ") + numbers(t.strides())));
    }

    void shapeDiagramDescriptionFollowsEveryStage()
    {
        ShapeDiagramWidget* diagram = window_->stepperView()->diagram();
        QSet<QString> seen;
        for (int i = 0; i < static_cast<int>(session_->trace()->trace()->stages.size()); ++i) {
            session_->view()->setStageIndex(i);
            const Stage* s = session_->view()->stage();
            const QString text = accessibleText(diagram, QAccessible::Description);
            QVERIFY2(text.startsWith(QStringLiteral("Stage %1: shape %2")
                                         .arg(QString::fromStdString(s->name), numbers(s->tensor.shape()))),
                     qPrintable(text));
            QCOMPARE(text.contains(QStringLiteral("Not contiguous")), !s->tensor.is_contiguous());
            seen.insert(text);
        }
        QCOMPARE(seen.size(), static_cast<int>(session_->trace()->trace()->stages.size())); // one text per stage
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestUiAccessibility)
#include "test_ui_accessibility.moc"
