// Text cut to fit a box on the canvas. Box widths come from the C++ view model (a label's
// estimated width, clamped: src/view/view_model.cpp, box_width), so the page and the native
// layout agree on them; only the text adapts to the width it gets.
//
// fitText: one line, cut at the end with an ellipsis (group titles, notes).
// fitLabel: a node's label: one line at 12 px when it fits, else two lines at 11 px, broken after
// a separator (_ . : / - space) where one falls near the end of the first line; a label too long
// for two lines keeps its head on the first line and its tail on the second, the cut in the
// middle ("0:quantized_decomposed_" / "…per_tensor_default"), since the tail is what tells
// long generated names apart. The full label is in the hover tooltip and the panel.

export const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
export const LABEL_FONT_TWO_LINES = '11px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
// Line pitch of a two-line label; a node box is 28 px high (view_model.cpp, kNodeHeight).
export const TWO_LINE_PITCH = 12.5;

const SEPARATOR = /[_.:/\- ]/;
const cache = new Map();
function cached(key, make) {
  let r = cache.get(key);
  if (r !== undefined) return r;
  if (cache.size > 50000) cache.clear();
  r = make();
  cache.set(key, r);
  return r;
}

// The largest n in [0, max] with fits(n), fits monotone (true up to some n): by bisection.
function largest(max, fits) {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Text that fits `maxWidth`, with an ellipsis at the end; cached per string and width.
export function fitText(ctx, font, text, maxWidth) {
  return cached(`${font}|${Math.round(maxWidth)}|${text}`, () => {
    ctx.font = font;
    if (ctx.measureText(text).width <= maxWidth) return text;
    const n = largest(text.length, (k) => ctx.measureText(text.slice(0, k) + '…').width <= maxWidth);
    return n > 0 ? text.slice(0, n) + '…' : '';
  });
}

// A node label as { lines: [one or two strings], font }. Sets ctx.font (callers set their own
// after). Cached per label and width.
export function fitLabel(ctx, text, maxWidth) {
  return cached(`label|${Math.round(maxWidth)}|${text}`, () => {
    ctx.font = LABEL_FONT;
    if (ctx.measureText(text).width <= maxWidth || text.length < 4)
      return { lines: [fitText(ctx, LABEL_FONT, text, maxWidth)], font: LABEL_FONT };
    ctx.font = LABEL_FONT_TWO_LINES;
    const width = (s) => ctx.measureText(s).width;
    // First line: the longest head that fits, moved back to just after a separator when one is
    // in its last third (whole words read better than a cut mid-word).
    let head = largest(text.length - 1, (k) => width(text.slice(0, k)) <= maxWidth);
    for (let k = head; k > (head * 2) / 3; k--)
      if (SEPARATOR.test(text[k - 1])) {
        head = k;
        break;
      }
    if (head === 0) return { lines: [fitText(ctx, LABEL_FONT_TWO_LINES, text, maxWidth)], font: LABEL_FONT_TWO_LINES };
    const rest = text.slice(head);
    if (width(rest) <= maxWidth) return { lines: [text.slice(0, head), rest], font: LABEL_FONT_TWO_LINES };
    // Too long for two lines: the tail that fits after an ellipsis, starting after a separator
    // when one is in its first third.
    let n = largest(rest.length, (k) => width('…' + rest.slice(rest.length - k)) <= maxWidth);
    for (let k = n; k > (n * 2) / 3; k--)
      if (SEPARATOR.test(rest[rest.length - k - 1] || '')) {
        n = k;
        break;
      }
    return { lines: [text.slice(0, head), '…' + rest.slice(rest.length - n)], font: LABEL_FONT_TWO_LINES };
  });
}
