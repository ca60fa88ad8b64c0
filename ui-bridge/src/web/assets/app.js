// The exec approvals page. Everything it shows comes from the bridge: a
// reload shows the same state. Agent-controlled text is only ever set with
// textContent (never as HTML), and the bridge escaped invisible characters
// before it got here.
'use strict';

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key.startsWith('data-') || key.startsWith('aria-') || key === 'for' || key === 'scope') node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
};

const state = {
  armDelayMs: 600,
  pending: new Map(), // id -> approval, oldest first (insertion order)
  cards: new Map(), // id -> card element
  policy: null, // {path, hash, file}
  draft: null, // the file as edited
  conflict: null,
};

// Render timings, for the browser test's benchmark (never sent anywhere).
window.__approvalsStats = { renders: 0, maxRenderMs: 0, totalRenderMs: 0, lastRenderMs: 0 };

async function api(path, options = {}) {
  const init = { credentials: 'same-origin', headers: {}, ...options };
  if (options.json !== undefined) {
    init.body = JSON.stringify(options.json);
    init.headers['Content-Type'] = 'application/json';
    delete init.json;
  }
  const response = await fetch(path, init);
  let body = null;
  const text = await response.text();
  try { body = text ? JSON.parse(text) : null; } catch { body = { error: text }; }
  return { ok: response.ok, status: response.status, body };
}

// ---------------------------------------------------------------- views

function showView(name) {
  for (const view of ['approvals', 'policy', 'audit']) {
    const on = view === name;
    $('view-' + view).hidden = !on;
    const tab = $('tab-' + view);
    if (on) tab.setAttribute('aria-current', 'page'); else tab.removeAttribute('aria-current');
  }
  if (name === 'policy') loadPolicy();
  if (name === 'audit') loadAudit();
  history.replaceState(null, '', '#' + name);
}

// ---------------------------------------------------------------- approvals

function connect() {
  const source = new EventSource('/api/events');
  source.addEventListener('open', () => { $('connection').textContent = 'live'; });
  source.addEventListener('error', () => {
    $('connection').textContent = source.readyState === EventSource.CLOSED
      ? 'disconnected: reload the page (if the bridge restarted, open the new URL it printed)'
      : 'reconnecting…';
  });
  source.addEventListener('snapshot', (event) => {
    const { pending } = JSON.parse(event.data);
    timed(() => {
      const ids = new Set(pending.map((a) => a.id));
      for (const id of [...state.pending.keys()]) if (!ids.has(id)) removeApproval(id);
      // One insertion for the whole batch: one layout, however many wait.
      const batch = document.createDocumentFragment();
      for (const approval of pending) if (!state.pending.has(approval.id)) addApproval(approval, batch);
      $('pending').append(batch);
    });
  });
  source.addEventListener('requested', (event) => {
    const approval = JSON.parse(event.data);
    timed(() => addApproval(approval));
    notify(approval);
  });
  source.addEventListener('resolved', (event) => {
    const { id } = JSON.parse(event.data);
    timed(() => removeApproval(id));
  });
}

function timed(work) {
  const start = performance.now();
  work();
  afterChange();
  const took = performance.now() - start;
  const stats = window.__approvalsStats;
  stats.renders += 1;
  stats.lastRenderMs = took;
  stats.totalRenderMs += took;
  stats.maxRenderMs = Math.max(stats.maxRenderMs, took);
}

function addApproval(approval, parent = $('pending')) {
  if (state.pending.has(approval.id)) return;
  state.pending.set(approval.id, approval);
  const card = buildCard(approval);
  state.cards.set(approval.id, card);
  parent.append(card);
  const shownAt = performance.now();
  setTimeout(() => {
    if (!card.isConnected) return;
    for (const button of card.querySelectorAll('button')) button.disabled = false;
    card.dataset.buttonsArmed = 'true';
  }, state.armDelayMs);
  card.dataset.shownAt = String(shownAt);
}

function removeApproval(id) {
  const card = state.cards.get(id);
  const hadFocus = card && card.contains(document.activeElement);
  state.pending.delete(id);
  state.cards.delete(id);
  if (card) card.remove();
  if (hadFocus) focusFirst();
}

function afterChange() {
  const count = state.pending.size;
  $('pending-count').textContent = String(count);
  $('empty').hidden = count > 0;
  document.title = count ? `(${count}) Exec approvals` : 'Exec approvals';
  // A new request gets focus when nothing else has it, so keys work at once
  // (after the arming delay).
  const active = document.activeElement;
  if (!$('view-approvals').hidden && (!active || active === document.body)) focusFirst();
}

function focusFirst() {
  const first = $('pending').querySelector('.approval');
  if (first && !$('view-approvals').hidden) first.focus();
}

function buildCard(approval) {
  const d = approval.display;
  const card = $('approval-template').content.firstElementChild.cloneNode(true);
  card.dataset.id = approval.id;
  card.dataset.keysArmed = 'false';
  const titleId = 'title-' + approval.id;
  const title = card.querySelector('.title');
  title.id = titleId;
  title.textContent = `${d.agentId} wants to run ${programName(d)}`;
  card.setAttribute('aria-labelledby', titleId);
  const risk = card.querySelector('.risk');
  risk.textContent = `Risk: ${d.riskLevel}`;
  risk.classList.add('risk-' + (['low', 'medium', 'high', 'critical'].includes(d.riskLevel) ? d.riskLevel : 'high'));
  card.querySelector('.command').textContent = d.commandText;
  const facts = card.querySelector('.facts');
  const fact = (name, value) => { if (value != null && value !== '') facts.append(el('dt', { text: name }), el('dd', { text: value })); };
  fact('argv', d.argv.map((a) => JSON.stringify(a)).join(' '));
  fact('cwd', d.cwd);
  fact('agent', d.agentId);
  fact('session', d.sessionKey || '-');
  fact('why asked', d.reason || '');
  fact('risk reasons', d.riskReasons.join('; '));
  fact('policy', `security=${d.security} ask=${d.ask}`);
  fact('id', approval.id);
  const segments = card.querySelector('.segments');
  for (const segment of d.segments) {
    const li = el('li', {}, el('code', { text: segment.argv.join(' ') }));
    li.append(el('div', { class: 'path', text: `resolved: ${segment.resolvedPath ?? '(not found)'}` }));
    li.append(el('div', { class: 'path', text: `real: ${segment.realPath ?? '(not found)'}` }));
    if (segment.stdinFile) li.append(el('div', { class: 'path', text: `stdin from: ${segment.stdinFile}` }));
    for (const guard of segment.guards) li.append(el('div', { class: 'guard', text: `guard: ${guard}` }));
    segments.append(li);
  }
  if (!d.segments.length) segments.remove();
  const always = card.querySelector('.allow-always');
  if (!d.allowedDecisions.includes('allow-always')) always.remove();
  if (!d.allowedDecisions.includes('allow-once')) card.querySelector('.allow-once').remove();
  for (const button of card.querySelectorAll('button')) {
    button.setAttribute('aria-describedby', titleId);
    button.addEventListener('click', () => answer(approval.id, button.dataset.decision, card));
  }
  card.addEventListener('focus', () => armKeys(card));
  card.addEventListener('blur', () => { clearTimeout(card._armTimer); card.dataset.keysArmed = 'false'; });
  updateCountdown(card, approval);
  return card;
}

function programName(d) {
  const segment = d.segments[0];
  const path = segment && (segment.realPath || segment.resolvedPath);
  return path || d.argv[0] || 'a command';
}

// Keys answer the focused request only after it has held focus for the
// same arming delay the terminal prompt uses.
function armKeys(card) {
  clearTimeout(card._armTimer);
  card.dataset.keysArmed = 'false';
  card._armTimer = setTimeout(() => {
    if (document.activeElement === card) card.dataset.keysArmed = 'true';
  }, state.armDelayMs);
}

const KEYS = { o: 'allow-once', a: 'allow-always', d: 'deny' };

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  const decision = KEYS[event.key];
  if (!decision || $('view-approvals').hidden) return;
  const card = document.activeElement && document.activeElement.closest && document.activeElement.closest('.approval');
  if (!card || document.activeElement !== card) {
    if (!['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement?.tagName)) {
      $('approvals-note').textContent = 'Focus a request first (Tab), then press o, a or d.';
    }
    return;
  }
  event.preventDefault();
  if (card.dataset.keysArmed !== 'true') {
    note(card, 'Ignored: keys answer once the request has been in focus for a moment.');
    return;
  }
  if (decision === 'allow-always' && !card.querySelector('.allow-always')) {
    note(card, 'Always allow is not offered for this command (ask=always, or it cannot be persisted safely): press o or d.');
    return;
  }
  answer(card.dataset.id, decision, card);
}

async function answer(id, decision, card) {
  const result = await api(`/api/approvals/${encodeURIComponent(id)}/answer`, { method: 'POST', json: { decision } });
  if (result.ok) {
    $('approvals-note').textContent = `Answered ${decision} for ${id}.`;
    timed(() => removeApproval(id));
  } else {
    note(card, result.body?.error || `the bridge refused the answer (HTTP ${result.status})`);
    if (result.status === 404) timed(() => removeApproval(id));
  }
}

function note(card, text) {
  const p = card.querySelector('.card-note');
  if (p) p.textContent = text;
}

function updateCountdown(card, approval) {
  const left = Math.round((approval.expiresAtMs - Date.now()) / 1000);
  const text = left > 0
    ? `Expires in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}; then the ask fallback decides.`
    : 'Expired: the ask fallback decides.';
  const p = card.querySelector('.countdown');
  if (p.textContent !== text) p.textContent = text;
}

function tick() {
  for (const [id, card] of state.cards) updateCountdown(card, state.pending.get(id));
}

function notify(approval) {
  if (!('Notification' in window) || Notification.permission !== 'granted' || !document.hidden) return;
  const d = approval.display;
  const n = new Notification('Approval requested', { body: `${d.agentId}: ${d.commandText} (risk ${d.riskLevel})`, tag: approval.id });
  n.onclick = () => { window.focus(); showView('approvals'); state.cards.get(approval.id)?.focus(); };
}

function setupNotifications() {
  const button = $('notify');
  if (!('Notification' in window)) { button.hidden = true; return; }
  const refresh = () => {
    button.hidden = Notification.permission === 'granted';
    if (Notification.permission === 'denied') { button.disabled = true; button.textContent = 'Desktop notifications are blocked in this browser'; }
  };
  button.addEventListener('click', async () => { await Notification.requestPermission(); refresh(); });
  refresh();
}

// ---------------------------------------------------------------- policy

const KNOBS = [
  ['security', ['deny', 'allowlist', 'full']],
  ['ask', ['off', 'on-miss', 'always']],
  ['askFallback', ['deny', 'allowlist', 'full']],
];

async function loadPolicy() {
  const result = await api('/api/policy');
  if (!result.ok) { $('policy-status').textContent = result.body?.error || `cannot read the policy (HTTP ${result.status})`; return; }
  setPolicy(result.body);
}

function setPolicy(view) {
  state.policy = view;
  state.draft = structuredClone(view.file);
  $('policy-path').textContent = view.path;
  $('policy-warnings').textContent = (view.warnings || []).join('\n');
  renderPolicy();
}

function renderPolicy() {
  const file = state.draft;
  file.defaults = file.defaults || {};
  file.agents = file.agents || {};
  const knobs = $('defaults-knobs');
  knobs.replaceChildren(...KNOBS.map(([name, values]) => knobSelect(file.defaults, name, values, 'defaults', 'built-in')));
  $('defaults-lists').replaceChildren(
    ...safeBinsEditor(file.defaults, 'defaults', 'the defaults', 'the built-in list'),
    ...denylistEditor(file.defaults, 'defaults', 'the defaults'));
  const agents = $('agents');
  agents.replaceChildren(...Object.keys(file.agents).sort().map((id) => agentFieldset(id, file.agents[id])));
}

function knobSelect(layer, name, values, scope, inheritLabel) {
  const id = `knob-${scope}-${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const select = el('select', { id });
  select.append(el('option', { value: '', text: `(${inheritLabel})` }));
  for (const value of values) select.append(el('option', { value, text: value }));
  select.value = layer[name] || '';
  select.addEventListener('change', () => { if (select.value) layer[name] = select.value; else delete layer[name]; });
  return el('label', { for: id }, name, select);
}

function agentFieldset(id, agent) {
  agent.allowlist = agent.allowlist || [];
  const slug = id.replace(/[^A-Za-z0-9_-]/g, '_');
  const fieldset = el('fieldset', { class: 'agent', 'data-agent': id });
  fieldset.append(el('legend', { text: id === '*' ? 'Every agent (*)' : `Agent ${id}` }));
  fieldset.append(el('div', { class: 'knobs' }, ...KNOBS.map(([name, values]) => knobSelect(agent, name, values, 'agent-' + slug, 'inherit'))));
  const table = el('table', { class: 'grid' });
  table.append(el('caption', { class: 'sr-only', text: `Allowlist of ${id}` }));
  table.append(el('thead', {}, el('tr', {}, ...['Pattern', 'Argument prefix', 'Last used', 'Last command', 'Last resolved path', ''].map((h) => el('th', { scope: 'col', text: h })))));
  const body = el('tbody');
  agent.allowlist.forEach((entry, index) => {
    body.append(el('tr', { 'data-pattern': entry.pattern },
      el('td', {}, el('code', { text: entry.pattern })),
      el('td', { text: (entry.argPrefix || []).join(' ') }),
      el('td', { text: entry.lastUsedAt ? new Date(entry.lastUsedAt).toLocaleString() : 'never' }),
      el('td', { text: entry.lastUsedCommand || '' }),
      el('td', { text: entry.lastResolvedPath || '' }),
      el('td', {}, el('button', { type: 'button', class: 'secondary', text: 'Remove', 'aria-label': `Remove ${entry.pattern} from ${id}`, onclick: () => { agent.allowlist.splice(index, 1); renderPolicy(); } }))));
  });
  if (!agent.allowlist.length) body.append(el('tr', {}, el('td', { colSpan: 6, class: 'empty', text: 'No allowlist entries.' })));
  table.append(body);
  fieldset.append(el('h4', { text: 'Allowlist' }), el('div', { class: 'table-wrap' }, table));
  const patternId = `allow-pattern-${slug}`;
  const prefixId = `allow-prefix-${slug}`;
  const pattern = el('input', { id: patternId, type: 'text', autocomplete: 'off', spellcheck: false, placeholder: '/usr/bin/git' });
  const prefix = el('input', { id: prefixId, type: 'text', autocomplete: 'off', spellcheck: false, placeholder: 'status (optional)' });
  const add = el('button', { type: 'button', class: 'secondary', text: 'Add entry', 'aria-label': `Add entry to ${id}` });
  add.addEventListener('click', () => {
    const value = pattern.value.trim();
    if (!value) { pattern.focus(); return; }
    const entry = { id: crypto.randomUUID(), pattern: value };
    const words = prefix.value.trim().split(/\s+/).filter(Boolean);
    if (words.length) entry.argPrefix = words;
    agent.allowlist.push(entry);
    renderPolicy();
    $('policy-status').textContent = `Added ${value} to ${id}; not saved yet.`;
  });
  fieldset.append(el('div', { class: 'row add' },
    el('label', { for: patternId, text: 'Executable path or glob' }), pattern,
    el('label', { for: prefixId, text: 'Argument prefix' }), prefix, add));
  const owner = id === '*' ? 'every agent' : id;
  fieldset.append(...safeBinsEditor(agent, 'agent-' + slug, owner, id === '*' ? 'the defaults' : 'those of * or the defaults'));
  fieldset.append(...denylistEditor(agent, 'agent-' + slug, owner));
  return fieldset;
}

async function savePolicy(event, baseHash) {
  if (event) event.preventDefault();
  const file = state.draft;
  if (file.defaults && !Object.keys(file.defaults).length) delete file.defaults;
  $('policy-status').textContent = 'Saving…';
  const result = await api('/api/policy', { method: 'PUT', json: { file, baseHash: baseHash ?? state.policy.hash } });
  if (result.ok) {
    $('conflict').hidden = true;
    state.conflict = null;
    setPolicy(result.body);
    $('policy-status').textContent = 'Saved.';
  } else if (result.status === 409) {
    state.conflict = result.body;
    $('conflict-yours').textContent = JSON.stringify(result.body.yours, null, 2);
    $('conflict-theirs').textContent = JSON.stringify(result.body.current.file, null, 2);
    $('conflict').hidden = false;
    $('policy-status').textContent = 'Not saved: the file changed meanwhile. See both versions below.';
    $('conflict').scrollIntoView();
    $('h-conflict').setAttribute('tabindex', '-1');
    $('h-conflict').focus();
  } else {
    file.defaults = file.defaults || {};
    $('policy-status').textContent = result.body?.error || `not saved (HTTP ${result.status})`;
  }
}

// The file's version with what this page added: agents, allowlist entries
// (by id) and denylist entries (the defaults' and each agent's) it lacks.
// Removals, knob and safe-bin changes are not carried over; the person
// reviews the result before saving.
function mergeAdditions(theirs, mine) {
  const merged = structuredClone(theirs);
  merged.agents = merged.agents || {};
  for (const [id, agent] of Object.entries(mine.agents || {})) {
    const target = merged.agents[id];
    if (!target) { merged.agents[id] = structuredClone(agent); continue; }
    target.allowlist = target.allowlist || [];
    const known = new Set(target.allowlist.map((e) => e.id));
    for (const entry of agent.allowlist || []) if (!known.has(entry.id)) target.allowlist.push(structuredClone(entry));
    mergeDenylist(target, agent);
  }
  if (mine.defaults?.denylist?.length) mergeDenylist(merged.defaults = merged.defaults || {}, mine.defaults);
  return merged;
}

// Adds the denylist entries of `mine` that `target` lacks (compared whole).
function mergeDenylist(target, mine) {
  if (!mine.denylist?.length) return;
  const list = target.denylist = target.denylist || [];
  const known = new Set(list.map((e) => JSON.stringify(e)));
  for (const entry of mine.denylist) if (!known.has(JSON.stringify(entry))) list.push(structuredClone(entry));
}

// Safe bins of one layer (the defaults or an agent). Unticked, the layer
// sets none and inherits (an agent: from `*`, then the defaults; the
// defaults: the built-in list); ticked, its list replaces the inherited one,
// and an empty list means no safe bins at all.
function safeBinsEditor(layer, scope, owner, inherited) {
  const ownId = `safe-bins-own-${scope}`;
  const listId = `safe-bins-${scope}`;
  const own = el('input', { id: ownId, type: 'checkbox', checked: Array.isArray(layer.safeBins) });
  const list = el('input', { id: listId, type: 'text', autocomplete: 'off', spellcheck: false, value: (layer.safeBins || []).join(' ') });
  const words = () => list.value.trim().split(/\s+/).filter(Boolean);
  const sync = () => {
    list.disabled = !own.checked;
    list.placeholder = own.checked ? 'none: no safe bins' : `inherits ${inherited}`;
    if (own.checked) layer.safeBins = words(); else delete layer.safeBins;
  };
  own.addEventListener('change', sync);
  list.addEventListener('input', sync);
  sync();
  return [el('h4', { text: 'Safe bins' }), el('div', { class: 'row safe-bins' },
    own, el('label', { for: ownId, text: `Own safe bins for ${owner} (replaces ${inherited})` }),
    el('label', { for: listId, class: 'sr-only', text: `Safe bins of ${owner}, space-separated` }), list)];
}

// The denylist of one layer: refused even under security=full. Every
// layer's entries apply (they are joined, never replaced).
function denylistEditor(layer, scope, owner) {
  const entries = layer.denylist || [];
  const table = el('table', { class: 'grid' });
  table.append(el('caption', { class: 'sr-only', text: `Denylist of ${owner}` }));
  table.append(el('thead', {}, el('tr', {}, ...['Path pattern', 'Command pattern', 'Reason', ''].map((h) => el('th', { scope: 'col', text: h })))));
  const body = el('tbody');
  entries.forEach((entry, index) => {
    const name = entry.pattern || entry.commandPattern;
    body.append(el('tr', { 'data-deny': name },
      el('td', {}, el('code', { text: entry.pattern || '' })),
      el('td', {}, el('code', { text: entry.commandPattern || '' })),
      el('td', { text: entry.reason || '' }),
      el('td', {}, el('button', { type: 'button', class: 'secondary', text: 'Remove', 'aria-label': `Remove denylist entry ${name} from ${owner}`, onclick: () => {
        entries.splice(index, 1);
        if (!entries.length) delete layer.denylist;
        renderPolicy();
        $('policy-status').textContent = `Removed ${name} from the denylist of ${owner}; not saved yet.`;
      } }))));
  });
  if (!entries.length) body.append(el('tr', {}, el('td', { colSpan: 4, class: 'empty', text: 'No denylist entries.' })));
  table.append(body);
  const input = (field, placeholder) => el('input', { id: `deny-${field}-${scope}`, type: 'text', autocomplete: 'off', spellcheck: false, placeholder });
  const pattern = input('pattern', '/usr/bin/dd');
  const command = input('command', 'rm -rf');
  const reason = input('reason', '');
  const add = el('button', { type: 'button', class: 'secondary', text: 'Add to denylist', 'aria-label': `Add to denylist of ${owner}` });
  add.addEventListener('click', () => {
    const entry = {};
    if (pattern.value.trim()) entry.pattern = pattern.value.trim();
    if (command.value.trim()) entry.commandPattern = command.value.trim();
    if (!entry.pattern && !entry.commandPattern) { pattern.focus(); return; }
    if (reason.value.trim()) entry.reason = reason.value.trim();
    layer.denylist = layer.denylist || [];
    layer.denylist.push(entry);
    renderPolicy();
    $('policy-status').textContent = `Added ${entry.pattern || entry.commandPattern} to the denylist of ${owner}; not saved yet.`;
  });
  return [
    el('h4', { text: 'Denylist' }),
    el('div', { class: 'table-wrap' }, table),
    el('div', { class: 'row add' },
      el('label', { for: pattern.id, text: 'Denied path pattern' }), pattern,
      el('label', { for: command.id, text: 'or command pattern' }), command,
      el('label', { for: reason.id, text: 'Reason' }), reason, add),
  ];
}

// ---------------------------------------------------------------- explain

let explainTimer = null;
let explainSeq = 0;

function scheduleExplain() {
  clearTimeout(explainTimer);
  explainTimer = setTimeout(runExplain, 200);
}

async function runExplain() {
  const command = $('explain-command').value;
  const out = $('explain-result');
  if (!command.trim()) { out.replaceChildren(); return; }
  const seq = ++explainSeq;
  const result = await api('/api/explain', { method: 'POST', json: { command, agent: $('explain-agent').value.trim() || 'main' } });
  if (seq !== explainSeq) return;
  if (!result.ok) { out.textContent = result.body?.error || `HTTP ${result.status}`; return; }
  const { evaluation: e, fallback } = result.body;
  const lines = [];
  const verdict = el('span', { class: 'verdict-' + e.decision, text: e.decision.toUpperCase() });
  out.replaceChildren(el('div', {}, 'Decision: ', verdict, e.reason ? ` — ${e.reason.message || e.reason.code || JSON.stringify(e.reason)}` : ''));
  lines.push(`policy: security=${e.policy.security} ask=${e.policy.ask} askFallback=${e.policy.askFallback}`);
  if (e.analysis.reason) lines.push(`analysis: not understood: ${e.analysis.reason.message || JSON.stringify(e.analysis.reason)}`);
  e.analysis.segments.forEach((s, i) => {
    lines.push(`${i + 1}. ${s.argv.join(' ')}`);
    lines.push(`   real path: ${s.realPath ?? '(not found)'}; satisfied by: ${s.satisfiedBy ?? 'nothing'}`);
    if (s.stdinFile) lines.push(`   stdin from: ${s.stdinFile}`);
    if (s.miss) lines.push(`   miss: ${s.miss.message || JSON.stringify(s.miss)}`);
    for (const g of s.guards || []) lines.push(`   guard: ${g.reason}`);
  });
  lines.push(`risk: ${e.risk.level}${e.risk.reasons.length ? ' — ' + e.risk.reasons.join('; ') : ''}`);
  if (e.allowedDecisions.length) lines.push(`a person may answer: ${e.allowedDecisions.join(', ')}; if nobody answers: ${fallback.decision} (${fallback.reason})`);
  out.append(el('div', { text: lines.join('\n') }));
}

// ---------------------------------------------------------------- audit

async function loadAudit(event) {
  if (event) event.preventDefault();
  const params = new URLSearchParams({
    agent: $('audit-agent').value.trim(), decision: $('audit-decision').value,
    risk: $('audit-risk').value, since: $('audit-since').value, limit: '200',
  });
  const result = await api('/api/audit?' + params);
  const chain = $('audit-chain');
  const body = $('audit-table').tBodies[0];
  if (!result.ok) { chain.textContent = result.body?.error || `HTTP ${result.status}`; body.replaceChildren(); return; }
  const v = result.body.verify;
  chain.textContent = v.status === 'intact' ? `Chain verified: ${v.lines} records intact (head ${v.head.slice(0, 16)}…).`
    : v.status === 'broken' ? `CHAIN BROKEN: ${v.error}`
      : v.status === 'empty' ? 'No audit log yet.' : 'Auditing is off.';
  chain.className = v.status === 'broken' ? 'verdict-deny' : '';
  body.replaceChildren(...result.body.records.map((r) => el('tr', {},
    el('td', { text: new Date(r.ts).toLocaleString() }),
    el('td', { text: r.agentId || '' }),
    el('td', { text: r.event || '' }),
    el('td', { text: r.decision || '' }),
    el('td', { text: r.decidedBy || '' }),
    el('td', { text: r.risk ? `${r.risk.level}` : '' }),
    el('td', {}, el('code', { text: r.commandText || (r.argv || []).join(' ') })))));
  if (!result.body.records.length) body.append(el('tr', {}, el('td', { colSpan: 7, class: 'empty', text: 'No records match.' })));
}

// ---------------------------------------------------------------- start

async function start() {
  const session = await api('/api/session');
  if (session.ok) state.armDelayMs = session.body.armDelayMs;
  for (const view of ['approvals', 'policy', 'audit']) $('tab-' + view).addEventListener('click', () => showView(view));
  document.addEventListener('keydown', onKey);
  $('policy-form').addEventListener('submit', savePolicy);
  $('policy-reload').addEventListener('click', () => { $('conflict').hidden = true; loadPolicy(); });
  $('conflict-theirs-btn').addEventListener('click', () => { $('conflict').hidden = true; setPolicy(state.conflict.current); $('policy-status').textContent = 'Loaded the file as it is now.'; });
  $('conflict-mine-btn').addEventListener('click', () => savePolicy(null, state.conflict.current.hash));
  $('conflict-merge-btn').addEventListener('click', () => {
    const { current, yours } = state.conflict;
    setPolicy({ ...current, file: mergeAdditions(current.file, yours) });
    $('conflict').hidden = true;
    $('policy-status').textContent = "Your new entries were added to the file's version. Review, then save.";
  });
  $('agent-add').addEventListener('click', () => {
    const id = $('agent-new').value.trim();
    if (!id || !state.draft) return;
    state.draft.agents[id] = state.draft.agents[id] || { allowlist: [] };
    $('agent-new').value = '';
    renderPolicy();
  });
  $('explain-command').addEventListener('input', scheduleExplain);
  $('explain-agent').addEventListener('input', scheduleExplain);
  $('audit-filter').addEventListener('submit', loadAudit);
  setupNotifications();
  setInterval(tick, 1000);
  connect();
  const initial = location.hash.slice(1);
  showView(['policy', 'audit'].includes(initial) ? initial : 'approvals');
}

start();
