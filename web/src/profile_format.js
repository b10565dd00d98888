// Number formatting for the profile overlay. Times arrive in the page's unit: raw ticks (the
// ETDump does not say what a tick is) or the unit `--unit` chose.

export function formatTime(v, unit, withUnit = true) {
  if (!(v >= 0)) return '';
  let text;
  if (unit === 'ticks') text = Math.round(v).toLocaleString('en-US');
  else if (v >= 1000) text = Math.round(v).toLocaleString('en-US');
  else if (v >= 100) text = v.toFixed(1);
  else if (v >= 10) text = v.toFixed(2);
  else text = v.toFixed(3);
  return withUnit ? `${text} ${unit === 'us' ? 'µs' : unit}` : text;
}

export function formatShare(f) {
  if (!(f >= 0)) return '';
  return `${(f * 100).toFixed(f >= 0.1 ? 1 : 2)}%`;
}
