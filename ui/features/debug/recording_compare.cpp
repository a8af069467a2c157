#include "features/debug/recording_compare.h"

namespace attnlab::ui {

RecordingCompare::RecordingCompare(QObject* parent) : QObject(parent) {}

RecordingCompare::Outcome RecordingCompare::open(const QString& path, std::int64_t num_heads)
{
    // Classroom modules are tiny, so this runs on the GUI thread: reading and both forwards take milliseconds.
    try {
        Recording rec = read_recording(path.toStdString());
        RecordingComparison result = compare_recording(rec, book_reference(rec, num_heads));
        recording_ = std::move(rec);
        result_ = std::move(result);
        path_ = path;
        numHeads_ = num_heads;
        error_.clear();
        Q_EMIT changed();
        return Outcome::Compared;
    } catch (const NumHeadsNeeded& e) {
        dOut_ = e.d_out;
        error_ = QString::fromUtf8(e.what());
        return Outcome::NeedsNumHeads;
    } catch (const Error& e) {
        error_ = QString::fromUtf8(e.what());
    } catch (const std::bad_alloc&) {
        error_ = tr("'%1' is too large to compare in the memory available.").arg(path);
    }
    Q_EMIT changed();
    return Outcome::Refused;
}

} // namespace attnlab::ui
