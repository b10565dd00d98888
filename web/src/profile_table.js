// The profile table: one row per ETDump event of the shown block, sortable by any column;
// clicking a row that joins a node selects that node. Model strings go through textContent.
import { formatTime, formatShare } from './profile_format.js';
import { dockTable, markSorted, nextSort } from './dock_table.js';

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
    const p = profile;
    const exec = p.methodEvents.find((e) => e.name === 'Method::execute');
    const ui = dockTable({
      id: 'profile-drawer',
      className: 'profile-drawer',
      tableClass: 'profile-table',
      toggleTitle: 'Show or hide the profile table (p)',
      title:
        `${p.file} · block ${p.block} · ${p.rows.length} event rows` +
        (exec ? ` · Method::execute ${formatTime(exec.avg, p.unit)} avg over ${exec.count}` : ''),
      warnings: p.warnings,
      columns: COLUMNS,
      headLabel: (c) => (c.time ? `${c.label} (${unitLabel(p.unit)})` : c.label),
      onToggle: () => this.setOpen(this.el.classList.contains('closed')),
      onSort: (key) => this.sortBy(key),
    });
    this.el = ui.el;
    this.toggle = ui.toggle;
    this.scroller = ui.scroller;
    this.table = ui.table;
    this.tbody = ui.tbody;
    this.setOpen(true);
    this.render();
  }

  setOpen(open) {
    this.el.classList.toggle('closed', !open);
    this.toggle.textContent = open ? '▾ Profile' : '▸ Profile';
  }

  sortBy(key) {
    ({ key: this.sortKey, desc: this.sortDesc } = nextSort(COLUMNS, this.sortKey, this.sortDesc, key));
    this.render();
  }

  // Marks the row(s) whose event is the figure of node `i` of graph `graph`.
  highlightNode(graph, i) {
    for (const tr of this.tbody.rows) {
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
      const x = p.rows[a][key],
        y = p.rows[b][key];
      const c = typeof x === 'string' ? x.localeCompare(y) : x - y;
      return c * dir || a - b;
    };
    const children = new Map();
    const top = [];
    p.rows.forEach((r, k) => {
      if (r.in === undefined) top.push(k);
      else {
        if (!children.has(r.in)) children.set(r.in, []);
        children.get(r.in).push(k);
      }
    });
    top.sort(compare);
    const order = [];
    for (const k of top) {
      order.push(k);
      for (const c of (children.get(k) || []).sort(compare)) order.push(c);
    }
    markSorted(this.table, key, this.sortDesc);
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
        tr.title =
          r.did !== undefined
            ? 'Time inside a delegate that no decoded op matches'
            : 'Joins no node of the shown graph';
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
