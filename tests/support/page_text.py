"""Checks of a page's text as Chromium lays it out (computed layout and styles, through
Playwright), for the table's page and the room's page alike:

- every text meets WCAG AA contrast (4.5:1) against what is drawn under it (the nearest
  painted background there: an element's background colour, an SVG shape's fill), with
  the opacity of the text's and the background's ancestors taken in;
- no short text (a label and its value: "Table 7", "5 open", "Seat 9", at most 3 words)
  is broken over two lines.

problems(page) -> a list of what fails, each naming the text; empty when all is well.
"""

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}

CHECK = r"""
() => {
  const parse = (c) => {
    const m = c && c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {   // top (with its alpha) composited over an opaque bottom
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentNode) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const paint = (el) => {       // what el paints under text: a colour, or null
    const s = getComputedStyle(el);
    if (el instanceof SVGElement) {
      if (!["circle", "ellipse", "rect", "path", "polygon"].includes(el.tagName)) return null;
      return s.fill && s.fill !== "none" ? parse(s.fill) : null;
    }
    const c = parse(s.backgroundColor);
    return c && c[3] > 0 ? c : null;
  };
  const canvas = parse(getComputedStyle(document.body).backgroundColor) || [255, 255, 255, 1];
  const visible = (el) => {
    const s = getComputedStyle(el);
    return s.visibility === "visible" && s.display !== "none" && el.getClientRects().length;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\s+/g, " ").trim();
    const el = node.parentElement;
    if (!text || !el || !visible(el) || el.closest("[hidden], script, style, title")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    // A label and its value on one line.
    const words = text.split(" ").length;
    const tops = new Set(rects.map((r) => Math.round(r.top + r.height / 2)));
    if (words <= 3 && text.length <= 30 && tops.size > 1) out.push("wrapped: " + JSON.stringify(text));
    // The contrast of its first line against what is under it.
    const r = rects[0];
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    if (r.top + r.height / 2 < 0 || r.top + r.height / 2 >= innerHeight) continue;   // off screen
    const below = [];
    for (const e of document.elementsFromPoint(x, y)) {
      if (e === el && el instanceof SVGElement) continue;   // an SVG text paints no box
      const p = paint(e);
      if (!p) continue;
      const alpha = p[3] * opacity(e);
      below.push([p[0], p[1], p[2], alpha]);
      if (alpha >= 1) break;
    }
    let bg = canvas;
    for (const p of below.reverse()) bg = over(p, bg);
    const s = getComputedStyle(el);
    const fg0 = parse(el instanceof SVGElement ? s.fill : s.color);
    if (!fg0) continue;
    const fg = over([fg0[0], fg0[1], fg0[2], fg0[3] * opacity(el)], bg);
    const k = ratio(fg, bg);
    const key = text + "|" + k.toFixed(2);
    if (k < 4.5 && !seen.has(key)) {
      seen.add(key);
      out.push("contrast " + k.toFixed(2) + ": " + JSON.stringify(text.slice(0, 60)));
    }
  }
  return out;
}
"""


def problems(page):
    return page.evaluate(CHECK)
