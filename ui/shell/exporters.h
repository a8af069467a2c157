#pragma once
// What File > Export writes: the current view as a picture (PNG, SVG), the selected heatmap's
// numbers as CSV, and the shape trace as a Markdown table. Text comes out of pure functions (tests
// read it directly); files are written atomically.
#include "features/session.h"
#include "render/heatmap_source.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

class QPixmap;
class QWidget;

namespace attnlab {
struct Trace;
}

namespace attnlab::ui {

class MainWindow;

QWidget* viewWidget(const MainWindow& window, ViewMode view); // the tab page that shows `view`

// Theme: the colours on screen. Print: dark ink on white (RenderStyle::printPalette) whatever the theme,
// for handouts and slides with a light background.
enum class PictureColours { Theme, Print };

bool exportPng(QWidget* widget, const QString& path, QString* error, PictureColours colours = PictureColours::Theme);
bool exportSvg(QWidget* widget, const QString& path, const QString& title, QString* error,
               PictureColours colours = PictureColours::Theme);

// One row per query token, one column per key token; masked cells are written as -inf in scores
// and as 0 in weights, exactly as the trace holds them. The header row names the key tokens.
QString heatmapCsv(const HeatmapSlice& slice, const QStringList& tokens);
// | # | stage | code line | shape | strides | contiguous | -- every stage of the trace, in order.
QString traceMarkdown(const Trace& trace);

bool writeTextFile(const QString& path, const QString& text, QString* error);

// Every file the app writes goes through core's atomic writer (io/atomic_file.h): the whole new file or
// the old one, never a device, link or folder replaced. On failure `error` is one sentence,
// "Could not write WHAT to PATH: why." (WHAT defaults to the path alone).
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error, const QString& what = {});
// The picture encoded as PNG, empty when it cannot be encoded.
QByteArray pngBytes(const QPixmap& picture);

} // namespace attnlab::ui
