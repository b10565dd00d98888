// The drawing's colours: the theme's CSS custom properties (viewer.css, light and dark) read
// once per theme change, each category's fill mixed from its colour and the canvas background.

export function readTheme(el, categories) {
  const css = getComputedStyle(el);
  const v = (name) => css.getPropertyValue(name).trim();
  const dark = el.dataset.theme === 'dark';
  const bg = v('--canvas-bg');
  const cats = categories.map((c) => ({
    stroke: c.color,
    fill: mix(c.color, bg, dark ? 0.72 : 0.82),
    strip: c.color,
  }));
  return {
    dark,
    bg,
    cats,
    text: v('--text'),
    muted: v('--muted'),
    edge: v('--edge'),
    edgeStrong: v('--accent'),
    accent: v('--accent'),
    match: v('--match'),
    frameFill: v('--frame-fill'),
    frameStroke: v('--frame-stroke'),
    collapsedFill: v('--collapsed-fill'),
    collapsedStroke: v('--collapsed-stroke'),
    delegateFill: v('--delegate-fill'),
    qdq: v('--qdq'),
    labelBg: v('--label-bg'),
  };
}

// "#rrggbb", "#rrggbbaa", "rgb()" or "rgba()" -> [r, g, b, alpha]; grey for anything else.
export function parseColor(c) {
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(c);
  if (m) {
    const n = parseInt(m[1], 16);
    return [n >> 16, (n >> 8) & 255, n & 255, m[2] ? parseInt(m[2], 16) / 255 : 1];
  }
  const r = /rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?/.exec(c);
  return r ? [+r[1], +r[2], +r[3], r[4] !== undefined ? Number(r[4]) : 1] : [128, 128, 128, 1];
}
export function mix(a, b, t) {
  const x = parseColor(a);
  const y = parseColor(b);
  const c = x.slice(0, 3).map((v, i) => Math.round(v * (1 - t) + y[i] * t));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}
