#include "features/debug/your_code_state.h"

#include "features/debug/recording_compare.h"
#include "model/json_fields.h"

namespace attnlab::ui {

namespace {

constexpr double kLargestNumHeads = 1 << 20; // as a session file's head index

} // namespace

YourCodeState::YourCodeState(QObject* parent) : QObject(parent), comparison_(new RecordingCompare(this))
{
    connect(comparison_, &RecordingCompare::changed, this, &YourCodeState::comparisonChanged);
}

void YourCodeState::saveSection(QJsonObject& file) const
{
    if (comparison_->hasResult()) // absent otherwise: most sessions compare nothing
        file.insert("comparison", QJsonObject{{"path", comparison_->path()},
                                              {"num_heads", static_cast<double>(comparison_->numHeads())}});
}

void YourCodeState::restoreSection(const QJsonObject& file)
{
    const QJsonObject c = file.value("comparison").toObject();
    const QString path = c.value("path").toString();
    // A compared recording is read again (a file that is gone says so in Debugging > Your code).
    if (!path.isEmpty() && path != comparison_->path())
        comparison_->open(path, static_cast<std::int64_t>(c.value("num_heads").toDouble()));
}

bool YourCodeState::checkSection(const QJsonObject& file, QString* error)
{
    namespace f = json_fields;
    if (!file.contains("comparison"))
        return true;
    QJsonObject comparison;
    QString path;
    double heads = 0;
    return f::object(file, "comparison", &comparison, error) && f::string(comparison, "path", &path, error) &&
           f::integer(comparison, "num_heads", 0, kLargestNumHeads, &heads, error, 0);
}

} // namespace attnlab::ui
