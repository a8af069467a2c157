// The shape diagram in words, for screen readers: the same stage, axes, sizes, strides, reshaping and
// badges the painter draws, read from the same trace, so the two cannot disagree.
#include "render/shape_diagram_painter.h"

#include "render/stage_captions.h"

namespace attnlab::ui {

namespace {

QString numbers(const Shape& values)
{
    QStringList parts;
    for (auto v : values)
        parts << QString::number(v);
    return "(" + parts.join(", ") + ")";
}

QString axesWithSizes(const Stage& stage)
{
    QStringList parts;
    const Shape& shape = stage.tensor.shape();
    for (std::size_t i = 0; i < stage.axes.size() && i < shape.size(); ++i)
        parts << QStringLiteral("dim %1 %2 = %3")
                     .arg(i)
                     .arg(QString::fromStdString(std::string(axis_name(stage.axes[i]))))
                     .arg(shape[i]);
    return parts.join(", ");
}

} // namespace

QString ShapeDiagramPainter::describe() const
{
    const Tensor& t = stage_.tensor;
    QStringList lines;
    lines << QStringLiteral("Stage %1: shape %2.")
                 .arg(QString::fromStdString(stage_.name), QString::fromStdString(shape_to_string(t.shape())));
    if (!stage_.axes.empty())
        lines << QStringLiteral("Axes: %1.").arg(axesWithSizes(stage_));
    lines << QStringLiteral("Strides %1.").arg(numbers(t.strides()));
    const QString opLabel = shapeOpLabel(trace_, stage_);
    if (const Stage* prev = previousShapeStage(trace_, stage_); prev && shapeOp(trace_, stage_) != ShapeOp::None)
        lines << QStringLiteral("From %1, shape %2, strides %3: %4.")
                     .arg(QString::fromStdString(prev->name),
                          QString::fromStdString(shape_to_string(prev->tensor.shape())),
                          numbers(prev->tensor.strides()), opLabel);
    else if (!opLabel.isEmpty())
        lines << opLabel + QLatin1Char('.');
    const bool matches = stage_.expected_shape == t.shape();
    QStringList axes;
    for (const auto& a : stage_.axes)
        axes << QString::fromStdString(std::string(axis_name(a)));
    lines << QStringLiteral("Expected (%1) = %2; produced %3, %4.")
                 .arg(axes.join(", "), QString::fromStdString(shape_to_string(stage_.expected_shape)),
                      QString::fromStdString(shape_to_string(t.shape())),
                      matches ? QStringLiteral("as expected")
                              : QStringLiteral("which differs from the expected shape"));
    lines << (t.is_contiguous() ? QStringLiteral("Contiguous.")
                                : QStringLiteral("Not contiguous: strides out of order."));
    lines << (stage_.view_of.empty() ? QStringLiteral("Owns new storage.")
                                     : QStringLiteral("View of %1: shares its storage, no copy.")
                                           .arg(QString::fromStdString(stage_.view_of)));
    lines << stageCaption(stage_, trace_.config);
    return lines.join(QLatin1Char(' '));
}

} // namespace attnlab::ui
