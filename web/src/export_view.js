import { Camera } from './camera.js';
import { Renderer } from './render.js';
import { parseColor } from './theme.js';

// "Save SVG" / "Save PNG": the graph as it is open now (expand state, theme, faded categories,
// overlay colours, shapes), whole and at full detail, drawn by the same Renderer as the screen.
// PNG draws into a canvas; SVG draws into SvgContext, which records the Canvas 2D calls the
// renderer makes as SVG elements. Nothing leaves the page: the file is a blob: download.

const MARGIN = 16;
const MAX_SIDE = 16384; // browsers refuse larger canvases
const MAX_PIXELS = 64 * 1024 * 1024;

// A canvas colour -> [SVG colour, opacity].
function paint(c) {
  const [r, g, b, a] = parseColor(c);
  return [`rgb(${r},${g},${b})`, a];
}
const esc = (t) =>
  String(t)
    .replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch])
    // Characters XML 1.0 forbids (controls, lone surrogates, U+FFFE/U+FFFF).
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    );
const num = (v) => String(Math.round(v * 10) / 10);

// The subset of CanvasRenderingContext2D that render.js uses, writing SVG. Transforms are
// scale + translate (what the renderer sets); clipping is the whole drawing here.
export class SvgContext {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.out = [];
    this.path = [];
    this.stack = [];
    this.measure = document.createElement('canvas').getContext('2d');
    this.st = {
      a: 1,
      e: 0,
      f: 0,
      fillStyle: '#000',
      strokeStyle: '#000',
      lineWidth: 1,
      font: '10px sans-serif',
      textAlign: 'start',
      textBaseline: 'alphabetic',
      globalAlpha: 1,
      dash: [],
    };
    this.cx = 0;
    this.cy = 0;
    this.imageSmoothingEnabled = true;
  }
  // Canvas properties as accessors over the saved state.
  get fillStyle() {
    return this.st.fillStyle;
  }
  set fillStyle(v) {
    this.st.fillStyle = v;
  }
  get strokeStyle() {
    return this.st.strokeStyle;
  }
  set strokeStyle(v) {
    this.st.strokeStyle = v;
  }
  get lineWidth() {
    return this.st.lineWidth;
  }
  set lineWidth(v) {
    this.st.lineWidth = v;
  }
  get font() {
    return this.st.font;
  }
  set font(v) {
    this.st.font = v;
  }
  get textAlign() {
    return this.st.textAlign;
  }
  set textAlign(v) {
    this.st.textAlign = v;
  }
  get textBaseline() {
    return this.st.textBaseline;
  }
  set textBaseline(v) {
    this.st.textBaseline = v;
  }
  get globalAlpha() {
    return this.st.globalAlpha;
  }
  set globalAlpha(v) {
    this.st.globalAlpha = v;
  }

  save() {
    this.stack.push({ ...this.st, dash: this.st.dash.slice() });
  }
  restore() {
    if (this.stack.length) this.st = this.stack.pop();
  }
  setTransform(a, b, c, d, e, f) {
    Object.assign(this.st, { a, e, f });
  }
  setLineDash(d) {
    this.st.dash = d.slice();
  }
  clip() {}
  drawImage() {}
  x(v) {
    return v * this.st.a + this.st.e;
  }
  y(v) {
    return v * this.st.a + this.st.f;
  }

  beginPath() {
    this.path = [];
  }
  moveTo(x, y) {
    this.path.push(`M${num(this.x(x))} ${num(this.y(y))}`);
    this.cx = x;
    this.cy = y;
    this.sx = x;
    this.sy = y;
  }
  lineTo(x, y) {
    this.path.push(`L${num(this.x(x))} ${num(this.y(y))}`);
    this.cx = x;
    this.cy = y;
  }
  closePath() {
    this.path.push('Z');
    this.cx = this.sx;
    this.cy = this.sy;
  }
  rect(x, y, w, h) {
    this.moveTo(x, y);
    this.lineTo(x + w, y);
    this.lineTo(x + w, y + h);
    this.lineTo(x, y + h);
    this.closePath();
  }
  // A line to the first tangent point and an arc of radius r to the second (canvas arcTo).
  arcTo(x1, y1, x2, y2, r) {
    const x0 = this.cx,
      y0 = this.cy;
    const ax = x0 - x1,
      ay = y0 - y1,
      bx = x2 - x1,
      by = y2 - y1;
    const la = Math.hypot(ax, ay),
      lb = Math.hypot(bx, by);
    const cross = ax * by - ay * bx;
    if (!la || !lb || !r || Math.abs(cross) < 1e-9) {
      this.lineTo(x1, y1);
      return;
    }
    const angle = Math.acos(Math.max(-1, Math.min(1, (ax * bx + ay * by) / (la * lb))));
    const d = r / Math.tan(angle / 2);
    const t1x = x1 + (ax / la) * d,
      t1y = y1 + (ay / la) * d;
    const t2x = x1 + (bx / lb) * d,
      t2y = y1 + (by / lb) * d;
    this.lineTo(t1x, t1y);
    const sweep = cross < 0 ? 1 : 0;
    this.path.push(`A${num(r * this.st.a)} ${num(r * this.st.a)} 0 0 ${sweep} ${num(this.x(t2x))} ${num(this.y(t2y))}`);
    this.cx = t2x;
    this.cy = t2y;
  }
  alpha(opacity) {
    const a = opacity * this.st.globalAlpha;
    return a < 1 ? ` opacity="${Math.round(a * 1000) / 1000}"` : '';
  }
  fill() {
    if (!this.path.length) return;
    const [c, o] = paint(this.st.fillStyle);
    this.out.push(`<path d="${this.path.join('')}" fill="${c}"${this.alpha(o)}/>`);
  }
  stroke() {
    if (!this.path.length) return;
    const [c, o] = paint(this.st.strokeStyle);
    const dash = this.st.dash.length
      ? ` stroke-dasharray="${this.st.dash.map((v) => num(v * this.st.a)).join(' ')}"`
      : '';
    this.out.push(
      `<path d="${this.path.join('')}" fill="none" stroke="${c}" stroke-width="${num(Math.max(this.st.lineWidth * this.st.a, 0.1))}"${dash}${this.alpha(o)}/>`,
    );
  }
  fillRect(x, y, w, h) {
    const [c, o] = paint(this.st.fillStyle);
    this.out.push(
      `<rect x="${num(this.x(x))}" y="${num(this.y(y))}" width="${num(w * this.st.a)}" height="${num(h * this.st.a)}" fill="${c}"${this.alpha(o)}/>`,
    );
  }
  measureText(t) {
    this.measure.font = this.st.font;
    return this.measure.measureText(t);
  }
  // A halo behind text (render.js: group titles over edges): the outline alone, drawn before
  // the same text's fill.
  strokeText(t, x, y) {
    if (!t) return;
    const [c, o] = paint(this.st.strokeStyle);
    this.text(
      t,
      x,
      y,
      `fill="none" stroke="${c}" stroke-width="${num(this.st.lineWidth * this.st.a)}" stroke-linejoin="round"${this.alpha(o)}`,
    );
  }
  fillText(t, x, y) {
    if (!t) return;
    const [c, o] = paint(this.st.fillStyle);
    this.text(t, x, y, `fill="${c}"${this.alpha(o)}`);
  }
  text(t, x, y, paintAttributes) {
    // The canvas font shorthand: [weight] size family.
    const m = /^(?:(\d+|bold)\s+)?([\d.]+)px\s+(.*)$/.exec(this.st.font) || [null, null, '12', 'sans-serif'];
    const anchor = { center: 'middle', middle: 'middle', right: 'end', end: 'end' }[this.st.textAlign] || 'start';
    const dy = this.st.textBaseline === 'middle' ? ' dy="0.35em"' : this.st.textBaseline === 'top' ? ' dy="0.8em"' : '';
    this.out.push(
      `<text x="${num(this.x(x))}" y="${num(this.y(y))}"${dy} font-size="${num(Number(m[2]) * this.st.a)}"` +
        `${m[1] ? ` font-weight="${m[1]}"` : ''} font-family="${esc(m[3])}"${anchor !== 'start' ? ` text-anchor="${anchor}"` : ''} ${paintAttributes}>${esc(t)}</text>`,
    );
  }
  toString() {
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${num(this.width)}" height="${num(this.height)}" viewBox="0 0 ${num(this.width)} ${num(this.height)}">\n${this.out.join('\n')}\n</svg>\n`;
  }
}

// The frame state of the whole graph at `scale`, unselected, with no overview bitmap.
function wholeGraphState(app, scale) {
  const b = app.view.bounds;
  const camera = new Camera();
  camera.scale = 1;
  camera.x = MARGIN - b.x;
  camera.y = MARGIN - b.y;
  const s = {
    ...app.frameState(),
    camera,
    dpr: scale,
    useOverview: false,
    viewport: null,
    selectedNode: -1,
    selectedGroup: -1,
    matches: null,
    edgeHighlight: null,
    detachedHighlight: null,
  };
  return { s, width: b.w + 2 * MARGIN, height: b.h + 2 * MARGIN };
}

export function viewToSvg(app) {
  const { s, width, height } = wholeGraphState(app, 1);
  const ctx = new SvgContext(width, height);
  new Renderer({ width, height, getContext: () => ctx }).draw(s);
  return ctx.toString();
}

// Resolves to { blob, width, height, scale } (the scale shrinks to fit the canvas limits).
export function viewToPng(app, wanted = 2) {
  const b = app.view.bounds;
  const w = b.w + 2 * MARGIN,
    h = b.h + 2 * MARGIN;
  const scale = Math.min(wanted, MAX_SIDE / w, MAX_SIDE / h, Math.sqrt(MAX_PIXELS / (w * h)));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil(w * scale));
  canvas.height = Math.max(1, Math.ceil(h * scale));
  const { s } = wholeGraphState(app, scale);
  new Renderer(canvas).draw(s);
  return new Promise((resolve) =>
    canvas.toBlob((blob) => resolve({ blob, width: canvas.width, height: canvas.height, scale }), 'image/png'),
  );
}

export function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

// A file name for the picture: the page's file and graph, safe on every file system.
export function pictureName(app, ext) {
  const base = `${app.data.file.name.replace(/\.[^.]*$/, '')}-${app.model.name}`;
  return `${base.replace(/[^\w.-]+/g, '_').slice(0, 120)}.${ext}`;
}
