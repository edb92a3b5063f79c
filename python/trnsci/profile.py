"""trnsci.Profile (the C++ class trnsci._core.Profile) and its notebook view: _repr_html_ shows the
summary table and an SVG timeline of the cost model's schedule (one lane per core and engine)."""
import html

import numpy as np

from . import _core

Profile = _core.Profile

_COLORS = {"tensor": "#4e79a7", "vector": "#f28e2b", "scalar": "#59a14f", "gpsimd": "#b07aa1", "dma": "#9c755f",
           "host": "#e15759"}


def timeline_svg(profile, width=900, lane_height=14, max_rects=4000):
    """The schedule of the profile's (last) report as an SVG string.

    Instructions shorter than one pixel are merged per lane, so large calls stay small (at most about
    max_rects rectangles)."""
    t = profile.timeline()
    total = max(float(t["total_ns"]), 1e-9)
    core, engine = t["core"], t["engine"]
    start, end = t["start_ns"], t["end_ns"]
    names = t["engine_names"]
    lanes = sorted(set(zip(core.tolist(), engine.tolist())))
    label_w = 90
    scale = (width - label_w - 10) / total
    height = lane_height * len(lanes) + 30
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
           f"font-family='sans-serif' font-size='10'>"]
    budget = max(max_rects // max(len(lanes), 1), 1)
    for row, (c, e) in enumerate(lanes):
        y = 5 + row * lane_height
        name = names[e]
        out.append(f"<text x='2' y='{y + lane_height - 4}'>core {c} {html.escape(name)}</text>")
        sel = (core == c) & (engine == e)
        s, f = np.sort(start[sel]), None
        f = end[sel][np.argsort(start[sel])]
        px0 = np.floor(s * scale).astype(np.int64)
        px1 = np.maximum(np.ceil(f * scale).astype(np.int64), px0 + 1)
        merged = []
        for a, b in zip(px0.tolist(), px1.tolist()):
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        for a, b in merged[:budget]:
            out.append(f"<rect x='{label_w + a}' y='{y}' width='{b - a}' height='{lane_height - 3}' "
                       f"fill='{_COLORS.get(name, '#888')}'/>")
    y = height - 8
    out.append(f"<text x='{label_w}' y='{y}'>0</text>")
    out.append(f"<text x='{width - 80}' y='{y}'>{total * 1e-3:.3f} us</text>")
    out.append("</svg>")
    return "".join(out)


def _repr_html_(self):
    rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{v * 1e-3:.3f} us</td><td>{self.utilization[k] * 100:.1f}%</td></tr>"
                   for k, v in self.busy_ns.items())
    head = (f"<b>{html.escape(self.library)}.{html.escape(self.routine)}</b> on {html.escape(self.target)}: "
            f"modeled {self.modeled_us:.3f} us, roofline x{self.roofline:.2f} ({html.escape(self.roofline_engine)})")
    plan = f"<pre>{html.escape(self.plan)}</pre>" if self.plan else ""
    try:
        svg = timeline_svg(self)
    except Exception as exc:  # no trace kept: the table alone
        svg = f"<i>{html.escape(str(exc))}</i>"
    return (f"<div>{head}{plan}<table><tr><th>engine</th><th>busy</th><th>utilization</th></tr>{rows}</table>"
            f"{svg}</div>")


Profile._repr_html_ = _repr_html_
Profile.timeline_svg = timeline_svg
