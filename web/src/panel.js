// The side panel: everything the file says about a node, an edge or a group.
// Every string from the model goes through textContent, never markup.
import { formatBytes } from './data.js';
import { el } from './dom.js';

function section(root, title) {
  const s = el('section', 'panel-section');
  // A title can hold a name ("Graph: __et_training_parameters_index_forward"): it wraps at the
  // name's separators rather than running past the panel.
  s.appendChild(breakableText(el('h3'), title));
  root.appendChild(s);
  return s;
}

// Identifiers have no spaces ("executorch_program", "aten.convolution.default",
// "layers.3.attention.wq"): in a narrow column the browser would cut them anywhere. A break
// opportunity (<wbr>) after each _ . / : lets them wrap at their own separators instead; the
// text itself (and what a copy takes) is unchanged.
function breakableText(e, text) {
  const parts = text.split(/(?<=[_./:])/);
  if (parts.length < 2 || text.length < 16) {
    e.textContent = text;
    return e;
  }
  parts.forEach((p, k) => {
    if (k) e.appendChild(document.createElement('wbr'));
    e.appendChild(document.createTextNode(p));
  });
  return e;
}

function row(parent, key, value, cls) {
  if (value === undefined || value === null || value === '' || value === -1) return;
  const r = el('div', 'kv');
  r.appendChild(breakableText(el('span', 'k'), String(key)));
  r.appendChild(breakableText(el('span', 'v' + (cls ? ' ' + cls : '')), String(value)));
  parent.appendChild(r);
}

// An overlay's section of the panel (profile, node data): a titled section and a function that
// adds a key/value row (always, even for an empty value) and returns the value's element.
export function overlaySection(title, cls) {
  const sec = el('section', `panel-section ${cls}`);
  sec.appendChild(el('h3', null, title));
  const kv = (k, v, vcls) => {
    const r = el('div', 'kv');
    r.appendChild(el('span', 'k', k));
    const b = el('span', 'v' + (vcls ? ` ${vcls}` : ''), v);
    r.appendChild(b);
    sec.appendChild(r);
    return b;
  };
  return { sec, kv };
}

// A value (argument) as a small card: its name (the schema's argument name, else the value's),
// then what it is (a tensor's dtype and shape, a scalar's or list's value as the runtime sees
// it), then where that came from (value id, the values a list boxes, memory, data).
function valueCard(parent, m, arg, onJump) {
  const card = el('div', 'arg');
  const head = el('div', 'arg-head');
  head.appendChild(el('span', 'arg-name', arg.name || (arg.value >= 0 ? m.value(arg.value).name : '') || '—'));
  if (arg.value < 0) {
    head.appendChild(el('span', 'arg-type', 'missing value'));
    card.appendChild(head);
    parent.appendChild(card);
    return;
  }
  const v = m.value(arg.value);
  const symbolic = v.kind.startsWith('sym_');
  head.appendChild(
    el(
      'span',
      'arg-type',
      v.kind === 'tensor'
        ? `${v.dtype} ${v.shape}`
        : v.literal && v.kind !== 'tensor_list' && v.kind !== 'optional_tensor_list'
          ? v.literal
          : v.kind,
    ),
  );
  card.appendChild(head);
  const body = el('div', 'arg-body');
  if (v.kind !== 'tensor') row(body, 'value', symbolic ? `${v.name} (computed at run time)` : v.literal, 'mono');
  if (v.kind !== 'tensor') row(body, 'kind', v.kind);
  row(body, 'value id', `v${v.id}`);
  row(body, 'items', v.items, 'mono');
  if (arg.name && v.name && v.name !== arg.name && v.name !== `v${v.id}`) row(body, 'name', v.name);
  row(body, 'dim order', v.dimOrder, 'mono');
  row(body, 'memory', v.mem, 'mono');
  row(body, 'data', v.location ? `${v.location}${v.key ? ` (${v.key})` : ''}` : '');
  if (v.nbytes >= 0) row(body, 'size', formatBytes(v.nbytes));
  row(body, 'quantization', v.quant, 'mono');
  if (v.producer >= 0 && onJump) {
    const r = el('div', 'kv');
    r.appendChild(el('span', 'k', 'producer'));
    const a = el('button', 'link', m.nodeName(v.producer));
    a.addEventListener('click', () => onJump(v.producer));
    r.appendChild(a);
    body.appendChild(r);
  }
  card.appendChild(body);
  parent.appendChild(card);
}

// "RuntimeError: Sizes of tensors must match" -> ['RuntimeError', 'Sizes of ...']: the
// exception's type (a Python name, dotted or not) and its message; ['', text] without a type.
export function splitException(text) {
  const match = /^([A-Za-z_][\w.]*): ([\s\S]*)$/.exec(text);
  return match ? [match[1], match[2]] : ['', text];
}

// A failed op (category error: the op a live trace's forward pass raised in) leads with what it
// raised. The message is the model's text: textContent only, like every value here.
function errorSection(root, attrs) {
  const entry = attrs.find(([k]) => k === 'error');
  const [type, message] = splitException(entry ? entry[1] : '');
  const s = section(root, 'Error');
  s.classList.add('panel-error');
  row(s, 'exception', type || 'unknown', 'mono');
  const r = el('div', 'kv');
  r.appendChild(el('span', 'k', 'message'));
  r.appendChild(el('span', 'v error-message', message || '(no message)'));
  s.appendChild(r);
}

export function showNode(root, m, data, i, onJump, onCopyLink) {
  root.replaceChildren();
  const op = m.nodeOp(i);
  const head = el('div', 'panel-head');
  const dot = el('span', 'cat-dot');
  dot.style.background = data.cats[m.n.cat[i]].color;
  head.appendChild(dot);
  head.appendChild(breakableText(el('h2', 'panel-title'), m.nodeLabel(i)));
  if (onCopyLink) {
    const link = el('button', 'btn link-btn', 'Copy link');
    link.title = 'Copy a link that reopens this page with this node selected';
    link.addEventListener('click', onCopyLink);
    head.appendChild(link);
  }
  root.appendChild(head);
  const failed = data.cats[m.n.cat[i]].id === 'error';
  const attrs = m.attributes(i);
  if (failed) errorSection(root, attrs);
  const ov = section(root, 'Node');
  const dotPos = op.lastIndexOf('.');
  row(ov, 'op', op, 'mono op-name');
  if (m.nodeKind(i) === 'kernel' && dotPos > op.indexOf('::')) row(ov, 'overload', op.slice(dotPos + 1), 'mono');
  row(ov, 'name', m.nodeName(i), 'mono');
  row(ov, 'kind', m.nodeKind(i));
  row(ov, 'category', data.cats[m.n.cat[i]].label);
  const instr = m.nodeInstr(i),
    chain = m.nodeChain(i);
  row(ov, 'instruction', instr >= 0 ? `${instr}${chain > 0 ? ` (chain ${chain})` : ''}` : '');
  row(ov, 'debug handles', m.nodeHandles(i), 'mono');
  row(ov, 'module', m.nodeModule(i), 'mono');
  const grp = m.n.group[i];
  if (grp >= 0)
    row(
      ov,
      'group',
      m
        .groupPath(grp)
        .map((g) => m.groupLabel(g))
        .join(' › '),
    );
  for (const [k, v] of attrs) if (!(failed && k === 'error')) row(ov, k, v, 'mono');
  const drawnAt = m.nodeDrawnAt(i);
  if (drawnAt >= 0) {
    // The nested graph this node calls is drawn once, at its first call (the view draws each
    // graph once when drawing it at every link would multiply the page).
    const r = el('div', 'kv');
    r.appendChild(el('span', 'k', 'its graph'));
    const a = el('button', 'link', `drawn at ${m.nodeName(drawnAt)}`);
    a.title = 'Each nested graph of this file is drawn once; this call shares it';
    if (onJump) a.addEventListener('click', () => onJump(drawnAt));
    r.appendChild(a);
    ov.appendChild(r);
  }

  const d = m.nodeDelegate(i);
  if (d >= 0 && data.delegates[d]) {
    const del = data.delegates[d];
    const s = section(root, 'Delegate');
    row(s, 'backend', del.backend);
    row(s, 'payload', `${del.location}${del.payloadIndex >= 0 ? ` #${del.payloadIndex}` : ''}`);
    if (del.payloadSize >= 0)
      row(s, 'payload size', `${formatBytes(del.payloadSize)} (${del.payloadSize.toLocaleString('en-US')} bytes)`);
    row(
      s,
      'decoded view',
      del.subgraph < 0
        ? 'no: the payload could not be decoded'
        : del.opaque
          ? "summary only: the backend's ops are not recoverable; the group holds what the payload says of itself"
          : del.tosaFile
            ? "yes: the TOSA graph the compiler wrote for it, beside the payload's summary (expand the group)"
            : "yes: the backend's ops (expand the group)",
    );
    row(s, 'decoder', del.note);
    if (del.tosaFile) row(s, 'TOSA graph', del.tosaFile, 'mono');
    if (del.specs.length) {
      const specs = section(root, 'Compile specs');
      for (const [k, v] of del.specs) row(specs, k, v, 'mono');
    }
  }
  const ins = m.inputs(i);
  if (ins.length) {
    const s = section(root, `Inputs (${ins.length})`);
    for (const a of ins) valueCard(s, m, a, onJump);
  }
  const outs = m.outputs(i);
  if (outs.length) {
    const s = section(root, `Outputs (${outs.length})`);
    for (const a of outs) valueCard(s, m, a, null);
  }
  const stack = m.nodeStack(i);
  if (stack) {
    const s = section(root, 'Stack trace');
    s.appendChild(el('pre', 'stack', stack));
  }
}

export function showEdge(root, m, e, onJump) {
  root.replaceChildren();
  const v = m.e.val[e];
  const head = el('div', 'panel-head');
  head.appendChild(breakableText(el('h2', 'panel-title'), v >= 0 ? m.value(v).name || `v${v}` : 'subgraph link'));
  root.appendChild(head);
  const s = section(root, 'Edge');
  if (v >= 0) {
    const val = m.value(v);
    row(s, 'value id', `v${v}`);
    row(s, 'dtype', val.dtype);
    row(s, 'shape', val.shape, 'mono');
    row(s, 'dim order', val.dimOrder, 'mono');
    row(s, 'memory', val.mem, 'mono');
    if (val.nbytes >= 0) row(s, 'size', formatBytes(val.nbytes));
    row(s, 'quantization', val.quant, 'mono');
  }
  const link = (title, ids) => {
    const sec = section(root, title);
    for (const n of ids) {
      const b = el('button', 'link block', `${m.nodeName(n)}  ·  ${m.nodeOp(n)}`);
      b.addEventListener('click', () => onJump(n));
      sec.appendChild(b);
    }
  };
  link('Producer', [m.e.src[e]]);
  const consumers = new Set();
  if (v >= 0) {
    for (let k = 0; k < m.edgeCount; k++) if (m.e.val[k] === v) consumers.add(m.e.dst[k]);
  } else {
    consumers.add(m.e.dst[e]);
  }
  link(`Consumers (${consumers.size})`, [...consumers]);
}

// 1234 -> "1,234"; 7.2e6 -> "7.2 M" (with the exact figure in a tooltip).
export function formatCount(n) {
  if (n < 1e5) return n.toLocaleString('en-US');
  const [d, u] = n >= 1e9 ? [1e9, 'G'] : n >= 1e6 ? [1e6, 'M'] : [1e3, 'k'];
  return `${(n / d).toFixed(n / d < 10 ? 2 : 1)} ${u}`;
}

// What a group holds (view_model.h, ViewGroup::ops and its constants): the constants its
// nodes read, each once, and its operators by op; clicking an op finds its nodes.
function showContents(root, m, g, onSearch) {
  const c = m.groupContents(g);
  const s = section(root, 'Contents');
  s.classList.add('group-contents');
  if (c.tensors) {
    const r = el('div', 'kv');
    r.appendChild(el('span', 'k', 'parameters'));
    const v = el(
      'span',
      'v group-params',
      `${formatCount(c.parameters)} in ${c.tensors.toLocaleString('en-US')} tensor${c.tensors === 1 ? '' : 's'}, ${formatBytes(c.bytes)}`,
    );
    v.title = `${c.parameters.toLocaleString('en-US')} elements, ${c.bytes.toLocaleString('en-US')} bytes: every constant tensor (parameter, buffer, constant) a node inside reads, counted once however many read it`;
    r.appendChild(v);
    s.appendChild(r);
  } else {
    row(s, 'parameters', 'none (no node inside reads a constant)');
  }
  const total = c.ops.reduce((a, [, n]) => a + n, 0);
  row(
    s,
    'operators',
    total ? `${total.toLocaleString('en-US')} (${c.ops.length} kind${c.ops.length === 1 ? '' : 's'})` : 'none',
  );
  if (!c.ops.length) return;
  const table = el('table', 'op-table group-ops');
  const head = el('tr');
  head.append(el('th', null, 'op'), el('th', 'num', 'count'));
  table.appendChild(head);
  for (const [op, n] of c.ops) {
    const tr = el('tr');
    const name = opCell(op, onSearch);
    tr.append(name, el('td', 'num', n.toLocaleString('en-US')));
    table.appendChild(tr);
  }
  s.appendChild(table);
}

// A table cell naming an op: clicking it searches for the op's nodes (op:=NAME).
function opCell(op, onSearch) {
  const td = el('td');
  const b = el('button', 'link', op);
  b.title = `Find the ${op} nodes (op:=${op})`;
  b.addEventListener('click', () => onSearch && onSearch(`op:=${op}`));
  td.appendChild(b);
  return td;
}

export function showGroup(root, m, data, g, expanded, onToggle, onSearch) {
  root.replaceChildren();
  const head = el('div', 'panel-head');
  head.appendChild(breakableText(el('h2', 'panel-title'), m.groupLabel(g)));
  root.appendChild(head);
  const s = section(root, 'Group');
  row(s, 'path', m.groupName(g), 'mono');
  row(s, 'kind', m.groupKind(g));
  row(s, 'nodes inside', m.g.count[g]);
  if (m.g.parent[g] >= 0) row(s, 'parent', m.groupLabel(m.g.parent[g]));
  for (const [k, v] of m.groupAttributes(g)) row(s, k, v);
  const b = el('button', 'btn', expanded ? 'Collapse' : 'Expand');
  b.addEventListener('click', () => onToggle(g));
  s.appendChild(b);
  showContents(root, m, g, onSearch);
  const owner = m.g.owner[g];
  if (owner >= 0) {
    const sub = el('div');
    root.appendChild(sub);
    showNode(sub, m, data, owner, null);
  }
}

// What each backend took and what stayed on the CPU (the numbers `etviz delegation` prints).
// Clicking an operator searches for it (op:=NAME), so its nodes are outlined and Enter walks
// through them.
function showDelegation(root, d, onSearch) {
  const s = section(root, 'Delegation');
  s.classList.add('delegation');
  row(s, 'delegated subgraphs', d.subgraphs.toLocaleString('en-US'));
  row(s, 'delegated ops', d.delegated.toLocaleString('en-US'));
  row(s, 'ops on the CPU', d.nonDelegated.toLocaleString('en-US'));
  if (d.opaque) row(s, 'opaque subgraphs', `${d.opaque} (summary only: their ops are not counted)`);
  for (const [backend, subgraphs, decoded, opaque, nodes] of d.backends)
    row(
      s,
      backend,
      `${subgraphs} subgraph${subgraphs === 1 ? '' : 's'}, ${nodes.toLocaleString('en-US')} ops` +
        (opaque ? ` (${decoded} decoded, ${opaque} summary only)` : ''),
    );
  // No operator is known (every payload opaque, nothing on the CPU): a header over no rows
  // would read as a failure to load, so say what there is instead.
  if (!d.operators.length) {
    s.appendChild(
      el(
        'div',
        'hint',
        d.opaque
          ? 'No operator counts: the delegated payloads are summarised, not decoded, and no operator runs on the CPU.'
          : 'No operators.',
      ),
    );
    return;
  }
  const table = el('table', 'op-table');
  const head = el('tr');
  for (const h of ['operator', 'delegated', 'CPU']) head.appendChild(el('th', h === 'operator' ? '' : 'num', h));
  table.appendChild(head);
  const ops = [...d.operators].sort((a, b) => b[1] + b[2] - (a[1] + a[2]));
  for (const [op, delegated, cpu] of ops) {
    const tr = el('tr');
    const name = opCell(op, onSearch);
    tr.append(name, el('td', 'num', delegated || ''), el('td', 'num', cpu || ''));
    table.appendChild(tr);
  }
  s.appendChild(table);
}

export function showSummary(root, data, m, onSearch) {
  root.replaceChildren();
  const head = el('div', 'panel-head');
  head.appendChild(breakableText(el('h2', 'panel-title'), data.file.name));
  root.appendChild(head);
  const s = section(root, 'File');
  row(s, 'format', data.file.format);
  row(s, 'version', data.file.formatVersion);
  // A diff of two files has no one size (the CLI writes 0).
  if (data.file.size)
    row(s, 'size', `${formatBytes(data.file.size)} (${data.file.size.toLocaleString('en-US')} bytes)`);
  for (const [k, v] of data.props) row(s, k, v);
  const gs = section(root, `Graph: ${m.name}`);
  row(gs, 'kind', m.kind);
  row(gs, 'nodes', m.irNodes.toLocaleString('en-US'));
  if (m.nodeCount > m.irNodes) row(gs, 'nodes in subgraphs', (m.nodeCount - m.irNodes).toLocaleString('en-US'));
  row(gs, 'values', m.valueCount.toLocaleString('en-US'));
  row(gs, 'groups', m.groupCount);
  row(gs, 'QDQ clusters', m.qdq.length || '');
  m.arena.forEach((size, id) => {
    if (size > 0) row(gs, `arena ${id}`, formatBytes(size));
  });
  for (const [k, v] of m.attrs) row(gs, k, v);
  if (data.delegation) showDelegation(root, data.delegation, onSearch);
  if (data.diagnostics.length) {
    const d = section(root, 'Notes from the reader');
    for (const [sev, msg] of data.diagnostics) d.appendChild(el('div', `diag ${sev}`, msg));
  }
  root.appendChild(el('p', 'hint', 'Click a node or an edge for details. Press ? for keyboard shortcuts.'));
}
