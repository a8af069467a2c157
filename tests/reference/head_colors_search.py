"""Chooses the head colours of ui/render/head_colors.cpp and re-computes the colour science the C++ tests
check (tests/ui/test_color_vision.cpp, test_head_colors.cpp) with NumPy, independently of the C++ code.

The search: sRGB candidates on a grid of 18 levels per channel, kept if their WCAG relative luminance
lies in [--ymin, --ymax] (3:1 against Fusion's #efefef window needs Y <= 0.2543, against white Y <= 0.30;
against the Dark theme's #26282c window Y >= 0.1634)
and their CIELAB chroma is at least 25 (grey means "masked" in the heatmaps). An ordered list of twelve
is improved one position at a time (and by swapping positions) to maximise, for every prefix n = 2..12,
the smallest CIEDE2000 distance between two colours as seen with normal vision and with simulated
protanopia, deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1.0, applied to
linear RGB). Restarts from random lists; the best list is printed as C++ with the measured minima.

    /usr/bin/python3 tests/reference/head_colors_search.py --seed 3 --ymin 0.1645 --ymax 0.25 --restarts 3
"""
import argparse

import numpy as np

MACHADO = {  # Table 1 of Machado et al. (2009), severity 1.0
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])


def decode(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def encode(c):
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.abs(c) ** (1 / 2.4) - 0.055)


def lab(srgb):
    xyz = decode(srgb) @ SRGB_TO_XYZ.T / SRGB_TO_XYZ.sum(1)
    d = 6 / 29
    f = np.where(xyz > d ** 3, np.cbrt(xyz), xyz / (3 * d * d) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def simulate(srgb, vision):
    return encode(np.clip(decode(srgb) @ MACHADO[vision].T, 0, 1))


def luminance(srgb):
    return decode(srgb) @ np.array([0.2126, 0.7152, 0.0722])


def ciede2000(x, y):
    L1, a1, b1 = x[..., 0], x[..., 1], x[..., 2]
    L2, a2, b2 = y[..., 0], y[..., 1], y[..., 2]
    c7 = ((np.hypot(a1, b1) + np.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - np.sqrt(c7 / (c7 + 25.0 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1 = np.where((a1p == 0) & (b1 == 0), 0, np.degrees(np.arctan2(b1, a1p)) % 360)
    h2 = np.where((a2p == 0) & (b2 == 0), 0, np.degrees(np.arctan2(b2, a2p)) % 360)
    dh = h2 - h1
    dh = np.where(c1 * c2 == 0, 0, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh)))
    dL, dC, dH = L2 - L1, c2 - c1, 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    Lb, Cb, hs = (L1 + L2) / 2, (c1 + c2) / 2, h1 + h2
    hb = np.where(np.abs(h1 - h2) <= 180, hs / 2, np.where(hs < 360, (hs + 360) / 2, (hs - 360) / 2))
    hb = np.where(c1 * c2 == 0, hs, hb)
    T = (1 - 0.17 * np.cos(np.radians(hb - 30)) + 0.24 * np.cos(np.radians(2 * hb))
         + 0.32 * np.cos(np.radians(3 * hb + 6)) - 0.20 * np.cos(np.radians(4 * hb - 63)))
    rc = 2 * np.sqrt(Cb ** 7 / (Cb ** 7 + 25.0 ** 7))
    rt = -np.sin(np.radians(60 * np.exp(-((hb - 275) / 25) ** 2))) * rc
    l50 = (Lb - 50) ** 2
    sl, sc, sh = 1 + 0.015 * l50 / np.sqrt(20 + l50), 1 + 0.045 * Cb, 1 + 0.015 * Cb * T
    return np.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2 + rt * (dC / sc) * (dH / sh))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--ymin", type=float, default=0.1645)
    ap.add_argument("--ymax", type=float, default=0.25)
    ap.add_argument("--restarts", type=int, default=3)
    ap.add_argument("--count", type=int, default=12)
    args = ap.parse_args()
    rng, K = np.random.default_rng(args.seed), args.count
    levels = np.arange(0, 256, 15) / 255.0  # 0, 15, ..., 255
    C = np.array(np.meshgrid(levels, levels, levels, indexing="ij")).reshape(3, -1).T
    C = C[(luminance(C) >= args.ymin) & (luminance(C) <= args.ymax)]
    C = C[np.hypot(lab(C)[:, 1], lab(C)[:, 2]) >= 25]
    seen = np.stack([lab(simulate(C, v)) for v in MACHADO])  # vision, candidate, Lab
    N = len(C)

    def pairs(idx):
        L = seen[:, idx]
        D = ciede2000(L[:, :, None, :], L[:, None, :, :]).min(0)
        np.fill_diagonal(D, np.inf)
        return D

    def prefix_minima(D):
        return np.array([D[:n, :n].min() for n in range(2, K + 1)])

    def objective(s):  # every prefix counts; the full list counts four times
        return s.mean(-1) + 3 * s[..., -1]

    best = None
    for restart in range(args.restarts):
        idx = list(rng.choice(N, K, replace=False))
        for _ in range(30):
            improved = False
            for i in rng.permutation(K):
                to_chosen = ciede2000(seen[:, :, None, :], seen[:, None, idx, :]).min(0)  # candidate, position
                D = pairs(idx)
                current = objective(prefix_minima(D))
                S = np.empty((N, K - 1))
                for n in range(2, K + 1):
                    rest = [j for j in range(n) if j != i]
                    base = D[np.ix_(rest, rest)].min() if len(rest) >= 2 else np.inf
                    S[:, n - 2] = np.minimum(base, to_chosen[:, rest].min(1)) if i < n else D[:n, :n].min()
                o = objective(S)
                o[idx] = -1
                if o.argmax() != idx[i] and o.max() > current + 1e-9:
                    idx[i], improved = int(o.argmax()), True
            current = objective(prefix_minima(pairs(idx)))
            for a in range(K):
                for b in range(a + 1, K):
                    t = idx.copy()
                    t[a], t[b] = t[b], t[a]
                    if objective(prefix_minima(pairs(t))) > current + 1e-9:
                        idx, current, improved = t, objective(prefix_minima(pairs(t))), True
            if not improved:
                break
        s = prefix_minima(pairs(idx))
        print("restart", restart, np.round(s, 2), flush=True)
        if best is None or objective(s) > objective(best[1]):
            best = (idx, s)
    idx, _ = best
    hexes = ["%02x%02x%02x" % tuple(int(round(v * 255)) for v in C[i]) for i in idx]
    print("constexpr std::array<QRgb, %d> kHeadColors = {%s};" % (K, ", ".join("0xff" + h for h in hexes)))
    chosen = C[idx]
    print("heads  " + "  ".join("%12s" % v for v in MACHADO))
    for n in range(2, K + 1):
        row = []
        for v in MACHADO:
            L = lab(simulate(chosen[:n], v))
            D = ciede2000(L[:, None, :], L[None, :, :])
            np.fill_diagonal(D, np.inf)
            row.append(D.min())
        print("%5d  " % n + "  ".join("%12.2f" % d for d in row))


if __name__ == "__main__":
    main()
