#!/usr/bin/python3
"""ISO 9283:1998 characteristics, computed independently of navbench's C code.

The tests of core/iso9283 (tests/test-iso9283.c) write a case as JSON on
stdin; this prints the figures as JSON.  A different formulation on purpose:
exact rational means of the positions (fractions.Fraction over the doubles as
given), orientation differences wrapped through unit complex numbers, numpy
for the spreads, plane crossings found by vectorised sign changes.
"""
import json
import math
import sys
from fractions import Fraction

import numpy as np


def wrap(deg):
    """An angle difference brought to (-180, 180] through exp(i·θ)."""
    return np.degrees(np.angle(np.exp(1j * np.radians(deg))))


def exact_mean_offset(values, ref):
    return float(sum(Fraction(v) - Fraction(ref) for v in values) / len(values))


def pose(cmd, poses):
    P = np.array(poses, dtype=float)
    n = len(P)
    off = np.array([exact_mean_offset(P[:, k], cmd[k]) for k in range(3)])
    d = P[:, :3] - np.array(cmd[:3]) - off           # exact: Sterbenz, then one rounding
    l = np.sqrt((d ** 2).sum(axis=1))
    dang = wrap(P[:, 3:] - np.array(cmd[3:]))
    ap_abc = dang.mean(axis=0)
    s_abc = dang.std(axis=0, ddof=1)
    return {
        "ap_mm": float(np.linalg.norm(off)),
        "ap_xyz_mm": off.tolist(),
        "ap_abc_deg": ap_abc.tolist(),
        "mean_deg": wrap(np.array(cmd[3:]) + ap_abc).tolist(),
        "l_mean_mm": float(l.mean()),
        "s_l_mm": float(l.std(ddof=1)),
        "rp_mm": float(l.mean() + 3 * l.std(ddof=1)),
        "rp_abc_deg": (3 * s_abc).tolist(),
    }


def vap(cmd, groups):
    bars, angs = [], []
    for g in groups:
        P = np.array(g, dtype=float)
        bars.append(np.array([exact_mean_offset(P[:, k], cmd[k]) for k in range(3)]))
        angs.append(wrap(P[:, 3:] - np.array(cmd[3:])).mean(axis=0))
    vp, va = 0.0, np.zeros(3)
    for h in range(len(groups)):
        for k in range(len(groups)):
            vp = max(vp, float(np.linalg.norm(bars[h] - bars[k])))
            va = np.maximum(va, np.abs(wrap(angs[h] - angs[k])))
    return {"vap_mm": vp, "vap_abc_deg": va.tolist()}


def exchangeability(cmd, robots):
    """7.7: the barycentres of each robot's attained poses; E the largest
    distance between two of them (and which pair), as vAP's over paths."""
    bars, angs = [], []
    for g in robots:
        P = np.array(g, dtype=float)
        bars.append(np.array([exact_mean_offset(P[:, k], cmd[k]) for k in range(3)]))
        angs.append(wrap(P[:, 3:] - np.array(cmd[3:])).mean(axis=0))
    pairs = [(h, k) for h in range(len(robots)) for k in range(h + 1, len(robots))]
    h, k = max(pairs, key=lambda hk: np.linalg.norm(bars[hk[0]] - bars[hk[1]]))
    ea = np.max([np.abs(wrap(angs[a] - angs[b])) for a, b in pairs], axis=0)
    return {"e_mm": float(np.linalg.norm(bars[h] - bars[k])), "e_abc_deg": ea.tolist(),
            "pair": [h, k]}


def distance(c1, c2, first, second):
    A, B = np.array(first, dtype=float), np.array(second, dtype=float)
    c1, c2 = np.array(c1), np.array(c2)
    v = (A[:, :3] - c1[:3]) - (B[:, :3] - c2[:3]) + (c1[:3] - c2[:3])
    D = np.sqrt((v ** 2).sum(axis=1))
    Dx = np.abs(v)
    Da = np.abs(wrap(A[:, 3:] - B[:, 3:]))
    dc = np.linalg.norm(c1[:3] - c2[:3])
    return {
        "d_command_mm": float(dc),
        "ad_mm": float(D.mean() - dc),
        "ad_xyz_mm": (Dx.mean(axis=0) - np.abs(c1[:3] - c2[:3])).tolist(),
        "ad_abc_deg": (Da.mean(axis=0) - np.abs(wrap(c1[3:] - c2[3:]))).tolist(),
        "rd_mm": float(3 * D.std(ddof=1)),
        "rd_xyz_mm": (3 * Dx.std(axis=0, ddof=1)).tolist(),
        "rd_abc_deg": (3 * Da.std(axis=0, ddof=1)).tolist(),
    }


def settling(t, p, band, tail):
    t, p = np.array(t), np.array(p)
    ref = p[-1]
    tailmask = t[-1] - t <= tail
    att = (p[tailmask] - ref).mean(axis=0)
    d = (p - ref) - att
    dist = np.sqrt((d ** 2).sum(axis=1))
    inside = dist <= band
    # The first crossing into the band: a sample inside, or a segment
    # between two samples that cuts the sphere (its nearer intersection).
    a, b = d[:-1], d[1:]
    v = b - a
    A = (v * v).sum(axis=1)
    B = 2 * (a * v).sum(axis=1)
    C = (a * a).sum(axis=1) - band * band
    disc = B * B - 4 * A * C
    with np.errstate(invalid="ignore", divide="ignore"):
        w = (-B - np.sqrt(np.where(disc >= 0, disc, np.nan))) / (2 * A)
    cut = (A > 0) & (disc >= 0) & (w >= 0) & (w <= 1)
    entry, t_entry = None, None
    for i in range(len(t)):
        if inside[i]:
            entry, t_entry = i, float(t[i])
            break
        if i > 0 and cut[i - 1]:
            entry, t_entry = i, float(t[i - 1] + w[i - 1] * (t[i] - t[i - 1]))
            break
    outside = np.nonzero(~inside)[0]
    stable = max(int(outside[-1]) + 1 if len(outside) else 0, entry)
    u = att - (p[0] - ref)
    u = u / np.linalg.norm(u)
    ov = max(0.0, float((d[entry:] @ u).max()))
    t_stable = max(float(t[stable]), t_entry)
    return {"attained_mm": (ref + att).tolist(), "t_entry_s": t_entry,
            "stabilisation_s": t_stable - t_entry, "overshoot_mm": ov}


def qmul(p, q):
    w0, x0, y0, z0 = p
    w1, x1, y1, z1 = q
    return np.array([w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1, w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
                     w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1, w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1])


def qaxis(axis, deg):
    h = math.radians(deg) / 2
    u = np.array(axis, dtype=float) / np.linalg.norm(axis)
    return np.concatenate(([math.cos(h)], math.sin(h) * u))


def command_abc(path, s, L):
    """8.4: R(abc)·Rot(axis, θ(s)) by quaternions (Rz(c)·Ry(b)·Rx(a) = qz·qy·qx),
    back to a, b, c from its matrix."""
    abc = np.array(path["abc"], dtype=float)
    axis = path.get("turn_axis")
    if axis is None or not np.any(axis):
        return abc
    th0, th1 = path["turn_deg"]
    q = qmul(qmul(qmul(qaxis([0, 0, 1], abc[2]), qaxis([0, 1, 0], abc[1])),
                  qaxis([1, 0, 0], abc[0])), qaxis(axis, th0 + (th1 - th0) * s / L))
    w, x, y, z = q / np.linalg.norm(q)
    r20 = 2 * (x * z - w * y)
    r21 = 2 * (y * z + w * x)
    r22 = 1 - 2 * (x * x + y * y)
    r10 = 2 * (x * y + w * z)
    r00 = 1 - 2 * (y * y + z * z)
    return np.degrees([math.atan2(r21, r22), math.atan2(-r20, math.hypot(r21, r22)),
                       math.atan2(r10, r00)])


def path_points(path, m):
    """(point, tangent, s, L) of the m calculated points."""
    if path["kind"] == "line":
        a, b = np.array(path["start"]), np.array(path["end"])
        L = np.linalg.norm(b - a)
        t = (b - a) / L
        return [(a + t * L * i / (m + 1), t, L * i / (m + 1), L) for i in range(1, m + 1)]
    c, s, nrm = np.array(path["centre"]), np.array(path["start"]), np.array(path["normal"])
    nrm = nrm / np.linalg.norm(nrm)
    r = np.linalg.norm(s - c)
    e1 = (s - c) / r
    e2 = np.cross(nrm, e1)
    out = []
    for i in range(1, m + 1):
        phi = 2 * math.pi * i / (m + 1)
        out.append((c + r * (math.cos(phi) * e1 + math.sin(phi) * e2),
                    -math.sin(phi) * e1 + math.cos(phi) * e2, r * phi, 2 * math.pi * r))
    return out


def path(path_def, tracks, m, reach):
    at, rt = 0.0, 0.0
    at_abc, rt_abc = np.zeros(3), np.zeros(3)
    for c, t, s, L in path_points(path_def, m):
        cabc = command_abc(path_def, s, L)
        pts, angs = [], []
        for tr in tracks:
            P = np.array(tr, dtype=float)
            rel = P[:, :3] - c
            f = rel @ t
            k = np.nonzero((f[:-1] <= 0) & (f[1:] > 0))[0]
            w = -f[k] / (f[k + 1] - f[k])
            x = rel[k] + w[:, None] * (rel[k + 1] - rel[k])
            dist = np.linalg.norm(x, axis=1)
            ok = dist <= reach
            k, w, x, dist = k[ok], w[ok], x[ok], dist[ok]
            best = int(np.argmin(dist))
            pts.append(x[best])
            a0 = wrap(P[k[best], 3:] - cabc)
            a1 = a0 + wrap(P[k[best] + 1, 3:] - P[k[best], 3:])
            angs.append(a0 + w[best] * (a1 - a0))
        X, A = np.array(pts), np.array(angs)
        bar = X.mean(axis=0)
        l = np.linalg.norm(X - bar, axis=1)
        at = max(at, float(np.linalg.norm(bar)))
        rt = max(rt, float(l.mean() + 3 * l.std(ddof=1)))
        at_abc = np.maximum(at_abc, np.abs(A.mean(axis=0)))
        rt_abc = np.maximum(rt_abc, 3 * A.std(axis=0, ddof=1))
    return {"at_mm": at, "rt_mm": rt, "at_abc_deg": at_abc.tolist(), "rt_abc_deg": rt_abc.tolist()}


def main():
    case = json.load(open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin)
    kind = case["kind"]
    if kind == "pose":
        out = pose(case["command"], case["poses"])
    elif kind == "vap":
        out = vap(case["command"], case["groups"])
    elif kind == "exchangeability":
        out = exchangeability(case["command"], case["robots"])
    elif kind == "distance":
        out = distance(case["c1"], case["c2"], case["first"], case["second"])
    elif kind == "settling":
        out = settling(case["t"], case["p"], case["band"], case["tail"])
    elif kind == "path":
        out = path(case["path"], case["tracks"], case["m"], case["reach"])
    else:
        raise SystemExit("unknown case " + kind)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
