// A table docked under the canvas (the profile table, the node data table): a head with a fold
// toggle, a title and a warnings badge, over a scrolling table whose column heads sort. The
// owner fills the body and decides what sorting means. Model strings go through textContent.

// columns: [{ key, label, title?, text? }] (text: sorts as text, else a number column);
// headLabel(c): what a column head says (default its label); onToggle(): the fold toggle was
// clicked; onSort(key): a column head was clicked.
export function dockTable({ id, className, tableClass, toggleTitle, title, warnings, columns, headLabel, onToggle, onSort }) {
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
