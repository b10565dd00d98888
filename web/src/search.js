// Search over ops, node names and module paths. "/re/flags" is a regular expression;
// anything else matches case-insensitively as a substring, every space-separated word.

export function compileQuery(text) {
  const q = text.trim();
  if (!q) return null;
  const re = /^\/(.+)\/([a-z]*)$/.exec(q);
  if (re) {
    try {
      const r = new RegExp(re[1], re[2].replace(/[gy]/g, '') || 'i');
      return (s) => r.test(s);
    } catch (e) {
      return { error: `bad regular expression: ${e.message}` };
    }
  }
  const words = q.toLowerCase().split(/\s+/);
  return (s) => {
    const l = s.toLowerCase();
    return words.every((w) => l.includes(w));
  };
}

// Node ids whose op, name, label or module path matches; op matches first, then by id.
export function searchNodes(model, text, limit = 500) {
  const match = compileQuery(text);
  if (!match) return { results: [], total: 0 };
  if (match.error) return { results: [], total: 0, error: match.error };
  const strong = [];
  const weak = [];
  const S = model.strings;
  // Test each distinct string once: models repeat op names thousands of times.
  const memo = new Map();
  const test = (id) => {
    if (id < 0) return false;
    let r = memo.get(id);
    if (r === undefined) { r = match(S[id]); memo.set(id, r); }
    return r;
  };
  const n = model.n;
  for (let i = 0; i < model.nodeCount; i++) {
    if (test(n.op[i]) || test(n.label[i])) strong.push(i);
    else if (test(n.name[i]) || test(n.module[i])) weak.push(i);
  }
  const all = strong.concat(weak);
  return { results: all.slice(0, limit), total: all.length, all };
}
