// Search over the nodes of a graph (docs/viewer.md, "Search"). A query is terms separated by
// spaces, all of which must match:
//   word            case-insensitive substring of the op, label, node name, module path, the
//                   path of a module box the node is drawn in, or an input or output tensor's
//                   dtype or shape (float32, [2, 256]: spaces in brackets ignored); the fields
//                   below narrow a word to one of these
//   op:TEXT         substring of the op (op:=TEXT: the whole op)
//   name:TEXT       substring of the node name (name:=TEXT: the whole name)
//   module:PATH     the node is in module PATH or below it: module:layers.1 matches layers.1
//                   and layers.1.attn, not layers.10; so is a node drawn in that module's box
//                   (a parameter placed beside its consumers) or named under it (its fqn,
//                   layers.1.weight)
//   class:NAME      a module class on the node's group path (Linear, DecoderLayer)
//   shape:[2,256]   an input or output tensor has this shape (spaces ignored); shape:256 a
//                   shape that mentions 256
//   dtype:int8      an input or output tensor has this dtype
//   category:error  the node's category, by id (error, delegate, quantize, ...) or a word of its
//                   legend label (category:delegate, category:calls)
// A whole query /regex/flags is a regular expression over op, label, name and module path.

export const RESULT_LIST_LIMIT = 200; // results the list shows; every match is outlined
const FIELDS = new Set(['op', 'name', 'module', 'class', 'shape', 'dtype', 'category']);

// Spaces inside [...] belong to a shape, not between terms.
function splitTerms(q) {
  return q
    .replace(/\[[^\]]*\]/g, (m) => m.replace(/\s+/g, ''))
    .split(/\s+/)
    .filter(Boolean);
}

// The query as a list of terms, or { error } for a bad regular expression, or null if empty.
export function parseQuery(text) {
  const q = text.trim();
  if (!q) return null;
  const re = /^\/(.+)\/([a-z]*)$/.exec(q);
  if (re) {
    try {
      const r = new RegExp(re[1], re[2].replace(/[gy]/g, '') || 'i');
      return { regex: r, terms: [] };
    } catch (e) {
      return { error: `bad regular expression: ${e.message}` };
    }
  }
  const terms = splitTerms(q)
    .map((t) => {
      const colon = t.indexOf(':');
      const field = colon > 0 ? t.slice(0, colon).toLowerCase() : '';
      if (!FIELDS.has(field)) return { field: null, value: t.toLowerCase() };
      let value = t.slice(colon + 1);
      const exact = value.startsWith('=');
      if (exact) value = value.slice(1);
      const folded = field === 'class' || field === 'dtype' || field === 'category';
      return { field, value: folded ? value.toLowerCase() : value, exact };
    })
    .filter((t) => t.value !== '');
  return { terms };
}

// Kept for callers that only need a string predicate (plain words or a regex).
export function compileQuery(text) {
  const p = parseQuery(text);
  if (!p) return null;
  if (p.error) return p;
  if (p.regex) return (s) => p.regex.test(s);
  const words = p.terms.map((t) => t.value.toLowerCase());
  return (s) => {
    const l = s.toLowerCase();
    return words.every((w) => l.includes(w));
  };
}

// "Linear" from a group label "q_proj (Linear)"; "" without a class.
function classOf(label) {
  const m = /\(([^()]*)\)\s*$/.exec(label || '');
  return m ? m[1].toLowerCase() : '';
}

// Node ids matching the query: nodes matched on their op or label first, then the others,
// each in id order. { results (the first `limit`), total, all, error? }.
export function searchNodes(model, text, limit = RESULT_LIST_LIMIT) {
  const parsed = parseQuery(text);
  if (!parsed) return { results: [], total: 0 };
  if (parsed.error) return { results: [], total: 0, error: parsed.error };
  const S = model.strings;
  const n = model.n;
  const str = (id) => (id >= 0 ? S[id] : '');
  // Each distinct string is tested once per predicate: models repeat op names thousands of times.
  const memo = (fn) => {
    const cache = new Map();
    return (id) => {
      if (id < 0) return false;
      let r = cache.get(id);
      if (r === undefined) {
        r = fn(S[id]);
        cache.set(id, r);
      }
      return r;
    };
  };
  // A node's name: its string (memoised like the others) or, for "prefix_12" names the page
  // stores as a prefix and a number (data.js nodeName), the text built for the test.
  const nameMemo = (fn) => {
    const byId = memo(fn);
    if (!n.nameN) return (i) => byId(n.name[i]);
    return (i) => (n.nameN[i] < 0 ? byId(n.name[i]) : fn(model.nodeName(i)));
  };
  // Tensor strings (shape, dtype) of a node's arguments.
  const tensorStrings = (i, field) => {
    const out = [];
    const v = model.v;
    if (!v || !n.inOff) return out;
    const add = (off, vals) => {
      for (let k = off[i]; k < off[i + 1]; k++) {
        const id = vals[k];
        if (id >= 0 && v[field][id] >= 0) out.push(S[v[field][id]]);
      }
    };
    add(n.inOff, n.inVal);
    add(n.outOff, n.outVal);
    return out;
  };
  // Module paths of the module boxes a node is drawn in, found once per group.
  const groupModules = new Map();
  const modulesOf = (g) => {
    if (g < 0 || !model.g || !model.g.name) return [];
    let c = groupModules.get(g);
    if (c) return c;
    c = [];
    for (let p = g, steps = 0; p >= 0 && steps <= model.groupCount; p = model.g.parent[p], steps++)
      if (model.groupKind(p) === 'module') c.push(str(model.g.name[p]));
    groupModules.set(g, c);
    return c;
  };
  // Classes on each group's path, found once per group.
  const groupClasses = new Map();
  const classesOf = (g) => {
    if (g < 0 || !model.g) return [];
    let c = groupClasses.get(g);
    if (c) return c;
    c = [];
    for (let p = g, steps = 0; p >= 0 && steps <= model.groupCount; p = model.g.parent[p], steps++) {
      const k = classOf(str(model.g.label[p]));
      if (k) c.push(k);
    }
    groupClasses.set(g, c);
    return c;
  };

  const strongTests = [];
  const allTests = [];
  if (parsed.regex) {
    const test = (s) => parsed.regex.test(s);
    const t = memo(test),
      tn = nameMemo(test);
    strongTests.push((i) => t(n.op[i]) || t(n.label[i]));
    allTests.push((i) => t(n.op[i]) || t(n.label[i]) || tn(i) || t(n.module[i]));
  }
  for (const term of parsed.terms) {
    const v = term.value;
    if (!term.field) {
      const test = (s) => s.toLowerCase().includes(v);
      const t = memo(test),
        tn = nameMemo(test);
      // Tensor strings as the panel writes them, compared without spaces ([2, 256]).
      const packed = v.replace(/\s+/g, '');
      const tensor = (s) => s.replace(/\s+/g, '').toLowerCase().includes(packed);
      strongTests.push((i) => t(n.op[i]) || t(n.label[i]));
      allTests.push(
        (i) =>
          t(n.op[i]) ||
          t(n.label[i]) ||
          tn(i) ||
          t(n.module[i]) ||
          modulesOf(n.group ? n.group[i] : -1).some(test) ||
          tensorStrings(i, 'dtype').some(tensor) ||
          tensorStrings(i, 'shape').some(tensor),
      );
      continue;
    }
    const text = (fn) => memo(term.exact ? (s) => s === v : fn);
    switch (term.field) {
      case 'op': {
        const t = text((s) => s.toLowerCase().includes(v.toLowerCase()));
        allTests.push((i) => t(n.op[i]));
        strongTests.push((i) => t(n.op[i]));
        break;
      }
      case 'name': {
        const t = nameMemo(term.exact ? (s) => s === v : (s) => s.toLowerCase().includes(v.toLowerCase()));
        allTests.push(t);
        break;
      }
      case 'module': {
        const under = (s) => s === v || s.startsWith(`${v}.`);
        const t = memo(under),
          named = memo((s) => s.startsWith(`${v}.`)),
          tn = nameMemo((s) => s.startsWith(`${v}.`));
        allTests.push(
          (i) => t(n.module[i]) || modulesOf(n.group ? n.group[i] : -1).some(under) || named(n.label[i]) || tn(i),
        );
        break;
      }
      case 'class':
        allTests.push((i) => classesOf(n.group[i]).includes(v));
        break;
      case 'shape': {
        const want = v.replace(/\s+/g, '');
        const bracketed = want.startsWith('[');
        allTests.push((i) =>
          tensorStrings(i, 'shape').some((s) => {
            const have = s.replace(/\s+/g, '');
            return bracketed ? have === want : have.includes(want);
          }),
        );
        break;
      }
      case 'dtype':
        allTests.push((i) => tensorStrings(i, 'dtype').some((s) => s.toLowerCase() === v));
        break;
      case 'category': {
        // The page's category table (data.cats, indexed by the nodes' cat column).
        const cats = (model.data && model.data.cats) || [];
        const hit = cats.map(
          (c) =>
            c.id === v ||
            (!term.exact &&
              c.label
                .toLowerCase()
                .split(/[\s/]+/)
                .includes(v)),
        );
        allTests.push((i) => !!hit[n.cat[i]]);
        break;
      }
      default:
        break;
    }
  }
  const strong = [];
  const weak = [];
  for (let i = 0; i < model.nodeCount; i++) {
    if (!allTests.every((t) => t(i))) continue;
    if (strongTests.length && strongTests.some((t) => t(i))) strong.push(i);
    else weak.push(i);
  }
  const all = strong.concat(weak);
  return { results: all.slice(0, limit), total: all.length, all };
}
