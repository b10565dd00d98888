// The timeline panel's constants whose bytes differ since the step before (a step's `tensors`,
// docs/viewer.md "Passes and diffs"), with the figures `etviz diff` states: one block per
// tensor, a row per figure, the first differences.
export function tensorDiffList(tensors) {
  const list = document.createElement('div');
  list.className = 'timeline-tensors';
  // Figures JSON cannot hold come as "inf", "-inf", "nan".
  const num = (v) =>
    typeof v === 'string' ? { inf: '∞', '-inf': '−∞' }[v] || 'NaN' : String(Number(Number(v).toPrecision(6)));
  const rows = (table, st, integer) => {
    const share = st.elements ? ((100 * st.differing) / st.elements).toPrecision(3) : '0';
    const facts = [
      ['differ', `${st.differing} of ${st.elements} elements (${share}%)${integer ? ', integers' : ''}`],
      ['max |diff|', num(st.maxAbs)],
      ['mean |diff|', num(st.meanAbs)],
      ['max rel', num(st.maxRel)],
      ['cosine', num(st.cosine)],
      ['SNR', `${num(st.snrDb)} dB`],
    ];
    if (st.nan[0] + st.nan[1] + st.inf[0] + st.inf[1] > 0)
      facts.push(['non-finite', `NaN ${st.nan[0]} → ${st.nan[1]}, Inf ${st.inf[0]} → ${st.inf[1]} (left out)`]);
    if (st.first.length) facts.push(['first', st.first.map(([at, a, b]) => `${at} ${num(a)} → ${num(b)}`).join('; ')]);
    for (const [k, v] of facts) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = k;
      const td = document.createElement('td');
      td.textContent = v;
      tr.append(th, td);
      table.appendChild(tr);
    }
  };
  for (const t of tensors) {
    const item = document.createElement('div');
    item.className = 'timeline-tensor';
    const head = document.createElement('div');
    head.className = 'k';
    head.textContent = `${t.name} ${t.dtype}${t.shape} (${t.location})`;
    item.appendChild(head);
    const table = document.createElement('table');
    rows(table, t.stats, t.integer);
    item.appendChild(table);
    if (t.dequantized) {
      const note = document.createElement('div');
      note.className = 'hint';
      note.textContent = `dequantized (${t.dequantizedBy}):`;
      item.appendChild(note);
      const deq = document.createElement('table');
      rows(deq, t.dequantized, false);
      item.appendChild(deq);
    }
    if (t.note) {
      const note = document.createElement('div');
      note.className = 'hint';
      note.textContent = t.note;
      item.appendChild(note);
    }
    list.appendChild(item);
  }
  return list;
}
