#include "render/design_geometry.h"

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

constexpr double kBiasGap = 2;
constexpr double kSubColumnGap = 14;

// One module: the integrated one, or one head of a wrapper. Its weights side by side, each with its bias.
struct Unit {
    int head = -1;
    std::vector<const Block*> weights;
    std::vector<const Block*> biases; // aligned with weights; nullptr when the weight has none
    double rows = 0, cols = 0;        // in matrix elements
    double fixed = 0;                 // in pixels: gaps and bias strips
};

std::vector<Unit> unitsOf(const DesignLayout& d, const DesignMetrics& m)
{
    std::vector<Unit> units;
    for (const Block& b : d.blocks) {
        if (b.is_bias)
            continue;
        if (units.empty() || units.back().head != b.head)
            units.push_back({static_cast<int>(b.head), {}, {}, 0, 0, 0});
        Unit& u = units.back();
        const std::string prefix = b.name.substr(0, b.name.size() - std::string("weight").size());
        const Block* bias = nullptr;
        for (const Block& c : d.blocks)
            if (c.is_bias && c.name == prefix + "bias")
                bias = &c;
        u.weights.push_back(&b);
        u.biases.push_back(bias);
        u.rows = std::max(u.rows, static_cast<double>(b.shape[0]));
        u.cols += static_cast<double>(b.shape[1]);
        u.fixed += (u.weights.size() > 1 ? m.roleGap : 0) + (bias ? kBiasGap + m.biasWidth : 0);
    }
    return units;
}

double unitGap(std::size_t units)
{
    return units <= 24 ? 5 : (units <= 96 ? 1 : 0);
}

struct Fit {
    bool ok = false;
    int perRow = 1; // units side by side
    double width = 0, height = 0;
};

Fit fitColumn(const std::vector<Unit>& units, double s, double bodyHeight)
{
    Fit f;
    if (units.empty()) {
        f.ok = true;
        return f;
    }
    const double gap = unitGap(units.size());
    const double unitH = units.front().rows * s, unitW = units.front().cols * s + units.front().fixed;
    const auto n = static_cast<double>(units.size());
    // More rows than units are never needed; a zero-height unit (a layout asked of an empty widget before
    // it has its size) would otherwise allow infinitely many, or 0 / 0.
    const double rowsAllowed = std::min(n, std::floor((bodyHeight + gap) / (unitH + gap)));
    if (!(rowsAllowed >= 1))
        return f;
    f.perRow = static_cast<int>(std::ceil(n / rowsAllowed));
    const double rows = std::ceil(n / f.perRow);
    f.width = f.perRow * unitW + (f.perRow - 1) * kSubColumnGap;
    f.height = rows * unitH + (rows - 1) * gap;
    f.ok = true;
    return f;
}

void placeUnit(const Unit& u, std::size_t column, QPointF at, double s, const DesignMetrics& m,
               std::vector<DesignShape>& shapes)
{
    const QRectF unitRect(at, QSizeF(u.cols * s + u.fixed, u.rows * s));
    shapes.push_back({DesignShape::Kind::Unit, unitRect, column, Role::Query, u.head, 0, {}});
    double x = at.x();
    for (std::size_t i = 0; i < u.weights.size(); ++i) {
        const Block& w = *u.weights[i];
        const QRectF r(x, at.y(), static_cast<double>(w.shape[1]) * s, static_cast<double>(w.shape[0]) * s);
        const QString name = QString::fromStdString(w.name);
        shapes.push_back({DesignShape::Kind::Weight, r, column, w.role, static_cast<int>(w.head), 0, name});
        for (const HeadSlice& h : w.head_slices) {
            const QRectF sr = h.axis == 0 ? QRectF(r.left(), r.top() + h.begin * s, r.width(), (h.end - h.begin) * s)
                                          : QRectF(r.left() + h.begin * s, r.top(), (h.end - h.begin) * s, r.height());
            shapes.push_back({DesignShape::Kind::Slice, sr, column, w.role, static_cast<int>(h.head), h.axis, name});
        }
        x = r.right();
        if (const Block* b = u.biases[i]) {
            const QRectF br(x + kBiasGap, at.y(), m.biasWidth, static_cast<double>(b->shape[0]) * s);
            const QString bname = QString::fromStdString(b->name);
            shapes.push_back({DesignShape::Kind::Bias, br, column, b->role, static_cast<int>(b->head), 0, bname, true});
            for (const HeadSlice& h : b->head_slices)
                shapes.push_back({DesignShape::Kind::Slice,
                                  QRectF(br.left(), br.top() + h.begin * s, br.width(), (h.end - h.begin) * s), column,
                                  b->role, static_cast<int>(h.head), 0, bname, true});
            x = br.right();
        }
        x += m.roleGap;
    }
}

} // namespace

const DesignShape* DesignGeometry::hitTest(const QPointF& pos) const
{
    for (auto it = shapes.rbegin(); it != shapes.rend(); ++it)
        if (it->kind != DesignShape::Kind::Unit && it->rect.adjusted(-1, -1, 1, 1).contains(pos))
            return &*it;
    return nullptr;
}

DesignGeometry layoutDesigns(const DesignComparison& cmp, const QRectF& rect, const DesignMetrics& m)
{
    DesignGeometry g;
    const std::size_t n = cmp.designs.size();
    std::vector<std::vector<Unit>> units;
    for (const DesignLayout& d : cmp.designs)
        units.push_back(d.exists ? unitsOf(d, m) : std::vector<Unit>{});
    const double middle = rect.height() - m.headerHeight - m.footerHeight;
    const double gaps = m.columnGap * static_cast<double>(n > 0 ? n - 1 : 0);
    // A column's least width, but never more than its share of the rect: in projector type beside the
    // lessons dock three such columns were wider than the page, no scale fitted and the drawings shrank to
    // nothing while the third column ran off the edge.
    const double minColumn =
        std::min(m.minColumnWidth, (rect.width() - gaps) / static_cast<double>(std::max<std::size_t>(n, 1)));
    double context = 0; // the masks go under the drawing, at the same scale: they take height too
    for (const DesignLayout& d : cmp.designs)
        if (d.exists && !d.buffers.empty())
            context = std::max(context, static_cast<double>(d.buffers.front().shape[0]));
    // Masks are drawn to scale up to a cap: a buffer of context_length^2 can dwarf a toy model's weights.
    const double maskCap = std::max(m.minBufferLane - 24, middle * 0.2);
    auto maskSide = [&](double s) { return std::min(context * s, maskCap); };
    auto bodyAt = [&](double s) { return std::max(1.0, middle - std::max(m.minBufferLane, maskSide(s) + 30)); };
    auto widths = [&](double s, std::vector<Fit>* fits) {
        double total = gaps;
        for (const auto& u : units) {
            const Fit f = fitColumn(u, s, bodyAt(s));
            if (!f.ok)
                return -1.0;
            total += std::max(minColumn, f.width);
            if (fits)
                fits->push_back(f);
        }
        return total;
    };
    // The largest scale at which every column fits: widths and heights only grow with it.
    double lo = 0, hi = 120;
    for (int i = 0; i < 60; ++i) {
        const double mid = (lo + hi) / 2;
        const double w = widths(mid, nullptr);
        (w >= 0 && w <= rect.width() ? lo : hi) = mid;
    }
    g.scale = lo;
    const double bodyHeight = bodyAt(lo);
    std::vector<Fit> fits;
    const double used = widths(g.scale, &fits);
    const double spare =
        std::max(0.0, rect.width() - std::max(0.0, used)) / static_cast<double>(std::max<std::size_t>(n, 1));

    double x = rect.left(), contentBottom = rect.top() + m.headerHeight;
    for (std::size_t c = 0; c < n; ++c) {
        const Fit f = c < fits.size() ? fits[c] : Fit{};
        const double w = std::max(minColumn, f.width) + spare;
        DesignColumn col;
        col.column = QRectF(x, rect.top(), w, rect.height());
        col.header = QRectF(x, rect.top(), w, m.headerHeight);
        col.body = QRectF(x, col.header.bottom(), w, bodyHeight);
        col.footer = QRectF(x, rect.bottom() - m.footerHeight, w, m.footerHeight);
        col.perRow = f.perRow;
        g.columns.push_back(col);
        x += w + m.columnGap;

        const auto& us = units[c];
        if (us.empty())
            continue;
        const double s = g.scale, gap = unitGap(us.size());
        const double unitW = us.front().cols * s + us.front().fixed, unitH = us.front().rows * s;
        const int perColumn = static_cast<int>(std::ceil(static_cast<double>(us.size()) / f.perRow));
        const double left = col.body.left() + (w - f.width) / 2;
        for (std::size_t i = 0; i < us.size(); ++i) {
            const auto sub = static_cast<double>(static_cast<int>(i) / perColumn);
            const auto row = static_cast<double>(static_cast<int>(i) % perColumn);
            placeUnit(us[i], c, QPointF(left + sub * (unitW + kSubColumnGap), col.body.top() + row * (unitH + gap)), s,
                      m, g.shapes);
        }
        contentBottom = std::max(contentBottom, col.body.top() + perColumn * (unitH + gap) - gap);
    }
    // The masks sit right under the tallest drawing, level across the columns.
    for (std::size_t c = 0; c < n; ++c) {
        DesignColumn& col = g.columns[c];
        const double lane = std::max(m.minBufferLane, maskSide(g.scale) + 30);
        col.footer.moveTop(std::min(col.footer.top(), contentBottom + 6 + lane)); // counts right under the drawing
        col.buffers =
            QRectF(col.body.left(), contentBottom + 6, col.body.width(), col.footer.top() - contentBottom - 6);
        const DesignLayout& d = cmp.designs[c];
        if (d.exists && !d.buffers.empty()) {
            const double side = std::min({static_cast<double>(d.buffers.front().shape[0]) * g.scale, maskCap,
                                          col.buffers.width() - m.bufferLabelWidth});
            g.shapes.push_back({DesignShape::Kind::Mask, QRectF(col.body.left(), col.buffers.top() + 6, side, side), c,
                                Role::Mask, static_cast<int>(d.buffers.front().head), 0,
                                QString::fromStdString(d.buffers.front().name)});
        }
    }
    return g;
}

} // namespace attnlab::ui
