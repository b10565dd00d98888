// The profile table: one row per ETDump event of the shown block, sortable by any column;
// clicking a row that joins a node selects that node. Model strings go through textContent.
import { formatTime, formatShare } from './profile_format.js';

const COLUMNS = [
  { key: 'name', label: 'event', text: true },
  { key: 'instr', label: 'instr', title: 'instruction (chain)' },
  { key: 'op', label: 'op', text: true },
  { key: 'count', label: 'n', title: 'occurrences' },
  { key: 'avg', label: 'avg', time: true },
  { key: 'p90', label: 'p90', time: true },
  { key: 'total', label: 'total', time: true },
  { key: 'share', label: 'share', title: 'share of Method::execute' },
];

export class ProfileTable {
  // onPick(row) is called with the row object when a joined row is clicked.
  constructor(profile, onPick) {
    this.profile = profile;
    this.onPick = onPick;
    this.sortKey = 'total';
    this.sortDesc = true;
    this.selected = -1;
    this.el = document.createElement('div');
    this.el.id = 'profile-drawer';
    this.el.className = 'profile-drawer';
    const head = document.createElement('div');
    head.className = 'profile-head';
    this.toggle = document.createElement('button');
    this.toggle.className = 'btn profile-toggle';
    this.toggle.title = 'Show or hide the profile table (p)';
    this.toggle.addEventListener('click', () => this.setOpen(this.el.classList.contains('closed')));
    const title = document.createElement('span');
    title.className = 'profile-title';
    const p = profile;
    const exec = p.methodEvents.find((e) => e.name === 'Method::execute');
    title.textContent = `${p.file} · block ${p.block} · ${p.rows.length} event rows` +
      (exec ? ` · Method::execute ${formatTime(exec.avg, p.unit)} avg over ${exec.count}` : '');
    head.append(this.toggle, title);
    if (p.warnings.length) {
      const w = document.createElement('span');
      w.className = 'profile-warn';
      w.textContent = `⚠ ${p.warnings.length} warning${p.warnings.length === 1 ? '' : 's'}`;
      w.title = p.warnings.join('\n');
      head.appendChild(w);
    }
    this.scroller = document.createElement('div');
    this.scroller.className = 'profile-scroll';
    this.table = document.createElement('table');
    this.table.className = 'profile-table';
    const thead = document.createElement('thead');
    const tr = document.createElement('tr');
    for (const c of COLUMNS) {
      const th = document.createElement('th');
      th.dataset.key = c.key;
      th.textContent = c.time ? `${c.label} (${unitLabel(p.unit)})` : c.label;
      if (c.title) th.title = c.title;
      if (!c.text) th.className = 'num';
      th.addEventListener('click', () => this.sortBy(c.key));
      tr.appendChild(th);
    }
    thead.appendChild(tr);
    this.tbody = document.createElement('tbody');
    this.table.append(thead, this.tbody);
    this.scroller.appendChild(this.table);
    this.el.append(head, this.scroller);
    this.setOpen(true);
    this.render();
  }

  setOpen(open) {
    this.el.classList.toggle('closed', !open);
    this.toggle.textContent = open ? '▾ Profile' : '▸ Profile';
  }

  sortBy(key) {
    if (this.sortKey === key) this.sortDesc = !this.sortDesc;
    else {
      this.sortKey = key;
      this.sortDesc = !COLUMNS.find((c) => c.key === key).text;
    }
    this.render();
  }

  // Marks the row(s) whose event is the figure of node `i` of graph `graph`.
  highlightNode(graph, i) {
    for (const tr of this.tbody.children) {
      const r = this.profile.rows[Number(tr.dataset.row)];
      tr.classList.toggle('active', r.graph === graph && r.nodes.includes(i));
    }
  }

  render() {
    const p = this.profile;
    const key = this.sortKey;
    const dir = this.sortDesc ? -1 : 1;
    // Outermost rows sorted; each followed by the rows nested in it (sorted the same way),
    // which the runtime logs inside it (their time is its time: no share of their own).
    const compare = (a, b) => {
      const x = p.rows[a][key], y = p.rows[b][key];
      const c = typeof x === 'string' ? x.localeCompare(y) : x - y;
      return c * dir || a - b;
    };
    const children = new Map();
    const top = [];
    p.rows.forEach((r, k) => {
      if (r.in === undefined) top.push(k);
      else { if (!children.has(r.in)) children.set(r.in, []); children.get(r.in).push(k); }
    });
    top.sort(compare);
    const order = [];
    for (const k of top) {
      order.push(k);
      for (const c of (children.get(k) || []).sort(compare)) order.push(c);
    }
    for (const th of this.table.tHead.rows[0].cells) {
      th.classList.toggle('sorted', th.dataset.key === key);
      th.dataset.dir = th.dataset.key === key ? (this.sortDesc ? 'desc' : 'asc') : '';
    }
    const rows = [];
    for (const k of order) {
      const r = p.rows[k];
      const tr = document.createElement('tr');
      tr.dataset.row = String(k);
      const joined = r.graph >= 0 && r.nodes.length > 0;
      if (joined) {
        tr.className = 'joined';
        tr.title = r.inside ? 'Inside a delegate: click to select the op it times' : 'Click to select the node';
        tr.addEventListener('click', () => this.onPick(r));
      } else {
        tr.title = r.did !== undefined ? 'Time inside a delegate that no decoded op matches' : 'Joins no node of the shown graph';
      }
      const cell = (text, cls) => {
        const td = document.createElement('td');
        if (cls) td.className = cls;
        td.textContent = text;
        tr.appendChild(td);
      };
      const nested = r.in !== undefined;
      if (nested) tr.classList.add('nested');
      cell(`${nested ? '└ ' : ''}${r.did !== undefined ? `${r.name} [${r.did}]` : r.name}`, 'mono');
      cell(r.instr >= 0 && r.chain >= 0 ? `${r.instr}${r.chain > 0 ? ` (${r.chain})` : ''}` : '', 'num');
      cell(r.op || (r.backend ? r.backend : ''), 'mono op');
      cell(r.count.toLocaleString('en-US'), 'num');
      cell(formatTime(r.avg, p.unit, false), 'num');
      cell(formatTime(r.p90, p.unit, false), 'num');
      cell(formatTime(r.total, p.unit, false), 'num');
      cell(nested ? '' : formatShare(r.share), 'num');
      rows.push(tr);
    }
    this.tbody.replaceChildren(...rows);
  }
}

function unitLabel(unit) {
  return unit === 'us' ? 'µs' : unit;
}
