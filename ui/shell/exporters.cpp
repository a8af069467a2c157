#include "shell/exporters.h"

#include "shell/main_window.h"
#include "forward/module_source.h"
#include "call/python_repr.h"
#include "features/session.h"
#include "render/render_style.h"
#include "forward/trace.h"
#include "io/atomic_file.h"

#include <QBuffer>
#include <QFile>
#include <QPainter>
#include <QPixmap>
#include <QCoreApplication>
#include <QSvgGenerator>
#include <QWidget>

#include <cmath>

namespace attnlab::ui {

namespace {

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    return QLatin1Char('"') + QString(text).replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
}

QString csvNumber(float v)
{
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    return QString::fromStdString(python_float_repr(static_cast<double>(v)));
}

QString shapeText(const Shape& shape)
{
    return QString::fromStdString(shape_to_string(shape));
}

} // namespace

QWidget* viewWidget(const MainWindow& window, ViewMode view)
{
    return window.page(view);
}

namespace {

// Repaints `widget` in the print palette while it lives; every painter and style sheet below it takes
// its colours from the palette, so the picture is the same view in print colours.
class PrintColoursScope {
public:
    PrintColoursScope(QWidget* widget, PictureColours colours)
        : widget_(colours == PictureColours::Print ? widget : nullptr)
    {
        if (!widget_)
            return;
        hadOwn_ = widget_->testAttribute(Qt::WA_SetPalette);
        before_ = widget_->palette();
        widget_->setPalette(RenderStyle::printPalette());
        QCoreApplication::sendPostedEvents(); // the style sheets' refreshes (followPalette) run queued
    }
    ~PrintColoursScope()
    {
        if (!widget_)
            return;
        widget_->setPalette(hadOwn_ ? before_ : QPalette()); // an empty palette inherits again
        QCoreApplication::sendPostedEvents();
    }
    PrintColoursScope(const PrintColoursScope&) = delete;
    PrintColoursScope& operator=(const PrintColoursScope&) = delete;

private:
    QWidget* widget_;
    bool hadOwn_ = false;
    QPalette before_;
};

} // namespace

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error, const QString& what)
{
    try {
        write_file_atomically(QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), bytes.size()));
        return true;
    } catch (const WriteError& e) {
        const QString why = QString::fromStdString(e.reason());
        if (error)
            *error = what.isEmpty() ? QObject::tr("Could not write %1: %2").arg(path, why)
                                    : QObject::tr("Could not write %1 to %2: %3").arg(what, path, why);
    } catch (const std::exception& e) {
        if (error)
            *error = QObject::tr("Could not write %1: %2").arg(path, QString::fromStdString(e.what()));
    }
    return false;
}

QByteArray pngBytes(const QPixmap& picture)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly) || !picture.save(&buffer, "PNG"))
        return {};
    return bytes;
}

bool exportPng(QWidget* widget, const QString& path, QString* error, PictureColours colours)
{
    const PrintColoursScope scope(widget, colours);
    const QByteArray png = pngBytes(widget->grab());
    if (png.isEmpty()) {
        if (error)
            *error = QObject::tr("Could not write the picture to %1: it could not be encoded as PNG.").arg(path);
        return false;
    }
    return writeFileAtomically(path, png, error, QObject::tr("the picture"));
}

bool exportSvg(QWidget* widget, const QString& path, const QString& title, QString* error, PictureColours colours)
{
    const PrintColoursScope scope(widget, colours);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(widget->size());
    svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
    svg.setTitle(title);
    svg.setDescription(QObject::tr("Exported from Attention Lab"));
    QPainter painter;
    if (!painter.begin(&svg)) {
        if (error)
            *error = QObject::tr("Could not write the drawing to %1.").arg(path);
        return false;
    }
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.end();
    return writeFileAtomically(path, bytes, error, QObject::tr("the drawing"));
}

QString heatmapCsv(const HeatmapSlice& slice, const QStringList& tokens)
{
    if (!slice.valid())
        return {};
    auto label = [&](int i) { return i < tokens.size() ? tokens[i] : QString::number(i); };
    QString out = QStringLiteral("query \\ key");
    for (int c = 0; c < slice.cols; ++c)
        out += QLatin1Char(',') + csvField(label(c));
    out += QLatin1Char('\n');
    for (int r = 0; r < slice.rows; ++r) {
        out += csvField(label(r));
        for (int c = 0; c < slice.cols; ++c)
            out += QLatin1Char(',') + csvNumber(slice.value(r, c));
        out += QLatin1Char('\n');
    }
    return out;
}

QString traceMarkdown(const Trace& trace)
{
    const auto& source = module_source(trace.config.kind);
    QString out = QStringLiteral("Shape trace of `%1`\n\n").arg(QString::fromStdString(positional_call(trace.config)));
    out += QStringLiteral("| # | stage | code line | shape | strides | contiguous |\n");
    out += QStringLiteral("|---:|---|---|---|---|---|\n");
    int index = 0;
    for (const Stage& s : trace.stages) {
        QString code;
        if (s.code_line >= 0 && s.code_line < static_cast<int>(source.size()))
            code = QStringLiteral("`%1`").arg(QString::fromStdString(source[static_cast<std::size_t>(s.code_line)])
                                                  .trimmed()
                                                  .replace(QLatin1String("|"), QLatin1String("\\|")));
        out +=
            QStringLiteral("| %1 | `%2` | %3 | %4 | %5 | %6 |\n")
                .arg(index++)
                .arg(QString::fromStdString(s.name), code, shapeText(s.tensor.shape()), shapeText(s.tensor.strides()),
                     s.tensor.is_contiguous() ? QStringLiteral("yes") : QStringLiteral("**no**"));
    }
    return out;
}

bool writeTextFile(const QString& path, const QString& text, QString* error)
{
    return writeFileAtomically(path, text.toUtf8(), error);
}

} // namespace attnlab::ui
