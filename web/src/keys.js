// One key map for the page: the viewer binds its keys here, overlays add theirs, and the help
// card lists whatever is bound. Keys typed into inputs or with modifiers are left alone.

export class KeyMap {
  constructor() {
    this.bindings = new Map();
  }

  // key: a KeyboardEvent.key value ('f', 'ArrowUp', '?'); keys: one or several such values
  // sharing one description in the help card.
  bind(keys, help, action) {
    const list = Array.isArray(keys) ? keys : [keys];
    const binding = { keys: list, help, action };
    for (const k of list) this.bindings.set(k, binding);
  }

  // Returns true when the event was handled.
  handle(ev) {
    const tag = (ev.target && ev.target.tagName) || '';
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.ctrlKey || ev.metaKey || ev.altKey)
      return false;
    const b = this.bindings.get(ev.key);
    if (!b) return false;
    ev.preventDefault();
    b.action(ev);
    return true;
  }

  // [{keys: ['f'], help: 'fit the whole graph'}], in the order they were bound, once each.
  entries() {
    const seen = new Set();
    const out = [];
    for (const b of this.bindings.values()) {
      if (seen.has(b)) continue;
      seen.add(b);
      if (b.help) out.push({ keys: b.keys, help: b.help });
    }
    return out;
  }
}

const KEY_NAMES = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', Escape: 'Esc', ' ': 'Space' };

// Fills the help card's table from the key map, then the mouse gestures.
export function renderHelp(table, keymap, gestures) {
  table.replaceChildren();
  const row = (keysCell, text) => {
    const tr = document.createElement('tr');
    const a = document.createElement('td');
    const b = document.createElement('td');
    a.append(...keysCell);
    b.textContent = text;
    tr.append(a, b);
    table.appendChild(tr);
  };
  for (const { keys, help } of keymap.entries()) {
    const cells = [];
    keys.forEach((k, i) => {
      if (i) cells.push(document.createTextNode(' '));
      const kbd = document.createElement('kbd');
      kbd.textContent = KEY_NAMES[k] || k;
      cells.push(kbd);
    });
    row(cells, help);
  }
  for (const [what, text] of gestures) row([document.createTextNode(what)], text);
}
