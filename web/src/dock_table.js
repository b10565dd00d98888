// What overlays dock under the canvas: a table (the profile table, the node data table) and a
// drawer that draws on a canvas of its own (the memory timeline, the size treemap). Each has a
// head with a fold toggle and a title; the owner fills the body. Model strings go through
// textContent.

// A table: a head with a fold toggle, a title and a warnings badge, over a scrolling table
// whose column heads sort; the owner decides what sorting means. columns: [{ key, label,
// title?, text? }] (text: sorts as text, else a number column); headLabel(c): what a column
// head says (default its label); onToggle(): the fold toggle was clicked; onSort(key): a column
// head was clicked.
/**
 * @param {{id: string, className: string, tableClass: string, toggleTitle: string, title: string,
 *   warnings: string[], columns: {key: string, label: string, title?: string, text?: boolean}[],
 *   headLabel?: (column: any) => string, onToggle: () => void, onSort: (key: string) => void}} options
 */
export function dockTable({
  id,
  className,
  tableClass,
  toggleTitle,
  title,
  warnings,
  columns,
  headLabel,
  onToggle,
  onSort,
}) {
  const el = document.createElement('div');
  el.id = id;
  el.className = className;
  const head = document.createElement('div');
  head.className = 'profile-head';
  const toggle = document.createElement('button');
  toggle.className = 'btn profile-toggle';
  toggle.title = toggleTitle;
  toggle.addEventListener('click', onToggle);
  const titleEl = document.createElement('span');
  titleEl.className = 'profile-title';
  titleEl.textContent = title;
  head.append(toggle, titleEl);
  if (warnings.length) {
    const w = document.createElement('span');
    w.className = 'profile-warn';
    w.textContent = `⚠ ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
    w.title = warnings.join('\n');
    head.appendChild(w);
  }
  const scroller = document.createElement('div');
  scroller.className = 'profile-scroll';
  const table = document.createElement('table');
  table.className = tableClass;
  const thead = document.createElement('thead');
  const tr = document.createElement('tr');
  for (const c of columns) {
    const th = document.createElement('th');
    th.dataset.key = c.key;
    th.textContent = headLabel ? headLabel(c) : c.label;
    if (c.title) th.title = c.title;
    if (!c.text) th.className = 'num';
    th.addEventListener('click', () => onSort(c.key));
    tr.appendChild(th);
  }
  thead.appendChild(tr);
  const tbody = document.createElement('tbody');
  table.append(thead, tbody);
  scroller.appendChild(table);
  el.append(head, scroller);
  return { el, toggle, table, tbody, scroller };
}

// Marks the sorted column's head (class sorted, data-dir asc|desc).
export function markSorted(table, key, desc) {
  for (const th of table.tHead.rows[0].cells) {
    th.classList.toggle('sorted', th.dataset.key === key);
    th.dataset.dir = th.dataset.key === key ? (desc ? 'desc' : 'asc') : '';
  }
}

// The next sort after a click on column `key`: the same column flips its direction; another
// starts descending for numbers, ascending for text.
export function nextSort(columns, current, desc, key) {
  if (current === key) return { key, desc: !desc };
  return { key, desc: !columns.find((c) => c.key === key).text };
}

// A drawer: a head with a fold toggle ('▸ label' closed, '▾ label' open) and a title, over a
// body holding a canvas and its tooltip; it starts closed. `className`: classes beside
// memory-drawer (the drawers' look, viewer.css); `titleClass` likewise beside memory-title;
// onToggle(): the fold toggle was clicked. The owner reads `open`, calls setOpen(open) and
// draws when it opens.
export function dockDrawer({ id, className = '', label, toggleTitle, titleClass = '', canvasLabel, onToggle }) {
  const el = document.createElement('div');
  el.id = id;
  el.className = ['memory-drawer', className, 'closed'].filter(Boolean).join(' ');
  const head = document.createElement('div');
  head.className = 'memory-head';
  const toggle = document.createElement('button');
  toggle.className = 'btn memory-toggle';
  toggle.textContent = `▸ ${label}`;
  toggle.title = toggleTitle;
  toggle.addEventListener('click', onToggle);
  const title = document.createElement('span');
  title.className = ['memory-title', titleClass].filter(Boolean).join(' ');
  head.append(toggle, title);
  const body = document.createElement('div');
  body.className = 'memory-body';
  const canvas = document.createElement('canvas');
  canvas.className = 'memory-canvas';
  canvas.setAttribute('aria-label', canvasLabel);
  const tip = document.createElement('div');
  tip.className = 'memory-tip';
  tip.hidden = true;
  body.append(canvas, tip);
  el.append(head, body);
  return {
    el,
    toggle,
    title,
    body,
    canvas,
    tip,
    get open() {
      return !el.classList.contains('closed');
    },
    setOpen(open) {
      el.classList.toggle('closed', !open);
      toggle.textContent = `${open ? '▾' : '▸'} ${label}`;
    },
  };
}
