#include "features/tradeoffs/sweep_heads_table.h"
#include "widgets/lesson_target.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace attnlab::ui {

namespace {

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter)
{
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(align);
    return it;
}

} // namespace

SweepHeadsTable::SweepHeadsTable(QWidget* parent)
    : QWidget(parent), variant_(new QComboBox), study_(new QPushButton(tr("Study This Model"))),
      save_(new QPushButton(tr("Save Model…"))), table_(new QTableWidget), intact_(new QLabel), rule_(new QLabel)
{
    nameTarget(study_, QStringLiteral("sweep-study"));
    study_->setToolTip(tr("Open this trained variant as the model under study: the stepper, the heatmaps, the "
                          "overview and Predict First show its heads on a sequence of its task."));
    nameTarget(save_, QStringLiteral("sweep-save-model"));
    save_->setToolTip(tr("Save this trained variant as a .safetensors file that File > Open Model and "
                         "attention-lab-cli run --model open."));
    nameTarget(variant_, QStringLiteral("sweep-heads-variant"));
    variant_->setAccessibleName(tr("Trained variant whose heads are shown"));
    variant_->setAccessibleDescription(tr("Pick a trained variant, by num_heads, key/value heads and seed, to list "
                                          "its heads measured one by one."));
    nameTarget(table_, QStringLiteral("sweep-heads-table"));
    table_->setAccessibleName(tr("The variant's heads, measured"));
    table_->setAccessibleDescription(tr("One row per layer and head: shares of attention on held-out sequences, the "
                                        "role they give, and the held-out loss and accuracy with that head zeroed."));
    table_->setColumnCount(10);
    table_->setHorizontalHeaderLabels({tr("layer"), tr("head"), tr("previous"), tr("first"), tr("self"),
                                       tr("induction"), tr("entropy"), tr("role"), tr("loss\nwithout it"),
                                       tr("accuracy\nwithout it")});
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    intact_->setWordWrap(true);
    rule_->setWordWrap(true);
    rule_->setText(tr("Shares are averaged over the query positions of the task's held-out sequences (induction: "
                      "the share on the token right after an earlier occurrence of the current token); entropy in "
                      "nats. A head's worth: the held-out loss and accuracy with its output zeroed (its columns of "
                      "out_proj set to 0). %1.")
                       .arg(QString::fromUtf8(train::kHeadRoleRule)));
    auto* pick = new QHBoxLayout;
    auto* label = new QLabel(tr("<b>Heads of</b>"));
    label->setBuddy(variant_);
    pick->addWidget(label);
    pick->addWidget(variant_);
    pick->addWidget(study_);
    pick->addWidget(save_);
    pick->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(pick);
    layout->addWidget(intact_);
    layout->addWidget(table_);
    layout->addWidget(rule_);
    connect(variant_, &QComboBox::currentIndexChanged, this, &SweepHeadsTable::showVariant);
    // Shown before anything is trained too, saying what will come here: a lesson points at it ahead.
    showVariant();
    connect(study_, &QPushButton::clicked, this, [this] { Q_EMIT studyRequested(shownRun()); });
    connect(save_, &QPushButton::clicked, this, [this] { Q_EMIT saveRequested(shownRun()); });
}

void SweepHeadsTable::setResults(const SweepResults& results)
{
    if (results == results_)
        return;
    const QVariant wanted = variant_->currentData();
    results_ = results;
    {
        const QSignalBlocker block(variant_);
        variant_->clear();
        for (int i = 0; i < static_cast<int>(results_.runs.size()); ++i) {
            const SweepRun& r = results_.runs[static_cast<std::size_t>(i)];
            if (!r.report.empty())
                variant_->addItem(tr("%1, seed %2")
                                      .arg(sweepVariantName(r.heads, r.kvHeads(), sweepGrouped(results_.settings)))
                                      .arg(r.seed),
                                  i);
        }
        const int keep = variant_->findData(wanted);
        variant_->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    variant_->setEnabled(variant_->count() > 0);
    showVariant();
}

void SweepHeadsTable::showRun(int runIndex)
{
    const int item = variant_->findData(runIndex);
    if (item >= 0)
        variant_->setCurrentIndex(item); // currentIndexChanged shows it
}

int SweepHeadsTable::shownRun() const
{
    const int index = variant_->currentData().isValid() ? variant_->currentData().toInt() : -1;
    return index >= 0 && index < static_cast<int>(results_.runs.size()) ? index : -1;
}

void SweepHeadsTable::showVariant()
{
    const int index = shownRun();
    if (index < 0) {
        table_->setRowCount(0);
        intact_->setText(tr("Once a sweep has finished, each trained variant's heads are measured here, one by one."));
        study_->setEnabled(false);
        save_->setEnabled(false);
        return;
    }
    const SweepRun& run = results_.runs[static_cast<std::size_t>(index)];
    // Weights are kept for runs trained in this window and for the models a session file kept.
    const bool weights = run.params != nullptr;
    study_->setEnabled(weights);
    save_->setEnabled(weights);
    const QString none = !run.modelProblem.isEmpty() ? run.modelProblem
                         : run.finished ? tr("The session file this was read from kept no model of this run: train "
                                             "again to study or save it.")
                                        : tr("This run did not finish: train again to study or save its model.");
    study_->setStatusTip(weights ? QString() : none);
    save_->setStatusTip(weights ? QString() : none);
    study_->setAccessibleDescription(weights ? study_->toolTip() : none);
    save_->setAccessibleDescription(weights ? save_->toolTip() : none);
    const bool ablated = run.ablationSkipped.empty();
    if (!run.evals.empty()) {
        QString skipped = QString::fromStdString(run.ablationSkipped);
        if (!skipped.isEmpty())
            skipped[0] = skipped[0].toUpper();
        intact_->setText(tr("As trained: held-out loss %1, accuracy %2. ")
                             .arg(run.evals.back().loss, 0, 'f', 3)
                             .arg(run.evals.back().accuracy, 0, 'f', 3) +
                         (ablated
                              ? tr("Zeroing a head the model relies on costs much more than zeroing one it could lose.")
                              : skipped));
    }
    table_->setRowCount(static_cast<int>(run.report.size()));
    for (int row = 0; row < table_->rowCount(); ++row) {
        const train::HeadStats& h = run.report[static_cast<std::size_t>(row)];
        const QStringList values = {QString::number(h.layer),
                                    QString::number(h.head),
                                    QString::number(h.shares.previous, 'f', 2),
                                    QString::number(h.shares.first, 'f', 2),
                                    QString::number(h.shares.self, 'f', 2),
                                    QString::number(h.shares.induction, 'f', 2),
                                    QString::number(h.shares.entropy, 'f', 2),
                                    QString::fromUtf8(train::role_name(h.role)),
                                    ablated ? QString::number(h.ablated.loss, 'f', 3) : QStringLiteral("—"),
                                    ablated ? QString::number(h.ablated.accuracy, 'f', 3) : QStringLiteral("—")};
        for (int c = 0; c < values.size(); ++c)
            table_->setItem(
                row, c, cell(values[c], c == 7 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    }
    const int shown = std::min(table_->rowCount(), 12);
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                             shown * table_->verticalHeader()->defaultSectionSize() + 2 * table_->frameWidth() + 2);
}

} // namespace attnlab::ui
