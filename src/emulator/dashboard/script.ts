// The dashboard's browser script, served as /__dashboard/app.js. Plain JavaScript for any current
// browser, kept here as a string so it bundles with the emulator; it has no dependencies. ASCII
// only (\u escapes for the rest): one other character makes V8 hold the whole CLI bundle as a
// two-byte string (scripts/bundle-plugins.mjs, asciiOnly).
export const PAGE_SCRIPT = String.raw`
'use strict';
// The dashboard's script: hash routing between four views, a poll of the active view every second,
// and the edit forms. Everything the server sends is put in the page as text, never as HTML.
(() => {
  const token = document.querySelector('meta[name="agentsync-token"]').content;
  const statusLine = document.getElementById('status');
  const VIEWS = ['resources', 'kb', 'requests', 'knobs'];
  /** Fields the server owns: shown, never offered for editing. */
  const SERVER_FIELDS = new Set(['_id', '__v', 'uid', 'appId', 'createdAt', 'updatedAt', 'deletedAt', 'type', 'tool.name']);
  const ENUMS = { failMode: ['mixed', '503', 'drop'], createStatus: [200, 201], timestamps: ['iso', 'epoch'], agentList: ['full', 'no-uid', 'sparse'] };
  let active = '';
  let shown = '';
  let editing = false;
  const openBodies = new Set();
  let lastRequests = null;

  const say = (text) => { statusLine.textContent = text; };

  async function api(method, path, body) {
    const init = { method, headers: { 'x-agentsync-token': token } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch('/__dashboard/api' + path, init);
    const json = await response.json();
    if (!response.ok) throw new Error((json && json.message) || 'HTTP ' + response.status);
    return json;
  }

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    return node;
  }

  function table(caption, headings, rows) {
    return h('table', {}, h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headings.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, rows));
  }

  const show = (value) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  const bodyOf = (name) => document.querySelector('#view-' + name + ' .body');

  // ---- Agents and tools ----
  function fieldRows(kind, id, record) {
    const rows = [];
    for (const [key, value] of Object.entries(record)) {
      if (kind === 'tool' && key === 'tool' && value && typeof value === 'object') {
        for (const [inner, innerValue] of Object.entries(value)) rows.push(fieldRow(kind, id, 'tool.' + inner, inner, innerValue));
      } else rows.push(fieldRow(kind, id, key, key, value));
    }
    return rows;
  }

  function fieldRow(kind, id, label, field, value) {
    const cell = h('td', { class: 'value' });
    if (kind === 'agent' && (field === 'tools' || field === 'actions') && Array.isArray(value)) {
      value.forEach((name, i) => cell.append(i ? ', ' : '', h('a', { href: '#tool-' + name }, name)));
      if (value.length === 0) cell.append('[]');
    } else cell.append(show(value));
    // A tool's name is its identity (PUT cannot rename); an agent's name is an ordinary field.
    const editable = !SERVER_FIELDS.has(label) && !(kind === 'tool' && label === 'name');
    const actions = h('td', {}, editable ? h('button', { type: 'button', 'aria-label': 'Edit ' + label, onclick: () => editField(kind, id, field, label, value, cell) }, 'Edit') : '');
    return h('tr', { 'data-field': label }, h('th', { scope: 'row' }, label), cell, actions);
  }

  function editField(kind, id, field, label, value, cell) {
    editing = true;
    const inputId = 'edit-' + kind + '-' + label.replace(/\W/g, '_');
    const isText = typeof value === 'string';
    const area = h('textarea', { id: inputId, name: 'value' });
    area.value = value === undefined ? '' : show(value);
    const form = h('form', { class: 'edit' },
      h('label', { for: inputId }, 'New ' + label + (isText ? '' : ' (JSON)')), area,
      h('button', { type: 'submit' }, 'Save'), ' ',
      h('button', { type: 'button', onclick: () => { editing = false; refresh(true); } }, 'Cancel'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      let next;
      try {
        next = isText ? area.value : JSON.parse(area.value);
      } catch (err) {
        say('Not valid JSON: ' + err.message);
        return;
      }
      try {
        await api('PATCH', '/' + kind + 's/' + encodeURIComponent(id), { field, value: next });
        say('Saved ' + label + ' of ' + kind + ' ' + id + '. Run "agentsync plan": it shows this as drift.');
        editing = false;
        refresh(true);
      } catch (err) {
        say('Not saved: ' + err.message);
      }
    });
    cell.replaceChildren(form);
    area.focus();
  }

  async function remove(kind, id) {
    if (!window.confirm('Delete ' + kind + ' ' + id + '?')) return;
    try {
      await api('DELETE', '/' + kind + 's/' + encodeURIComponent(id));
      say('Deleted ' + kind + ' ' + id + '.');
      refresh(true);
    } catch (err) {
      say('Not deleted: ' + err.message);
    }
  }

  function renderResources(data) {
    const agents = data.agents;
    const users = {};
    for (const agent of agents) for (const name of [...agent.tools, ...agent.actions]) (users[name] = users[name] || []).push(agent);
    const overview = table('Agents: ' + agents.length, ['Name', 'uid', 'Tools', 'Actions'], agents.map((agent) => h('tr', {},
      h('th', { scope: 'row' }, h('a', { href: '#agent-' + agent.uid }, agent.name || '(no name)')),
      h('td', { class: 'value' }, agent.uid),
      h('td', {}, agent.tools.map((name, i) => [i ? ', ' : '', h('a', { href: '#tool-' + name }, name)])),
      h('td', {}, agent.actions.map((name, i) => [i ? ', ' : '', h('a', { href: '#tool-' + name }, name)])))));
    const agentCards = agents.map((agent) => h('article', { id: 'agent-' + agent.uid, 'aria-labelledby': 'agent-h-' + agent.uid },
      h('h3', { id: 'agent-h-' + agent.uid }, 'Agent ' + (agent.name || agent.uid)),
      table('Fields of agent ' + (agent.name || agent.uid) + ', as the server stores them', ['Field', 'Value', 'Edit'], fieldRows('agent', agent.uid, agent)),
      h('button', { type: 'button', class: 'danger', onclick: () => remove('agent', agent.uid) }, 'Delete agent ' + (agent.name || agent.uid))));
    const toolCards = data.tools.map((tool) => h('article', { id: 'tool-' + tool.name, 'aria-labelledby': 'tool-h-' + tool.name },
      h('h3', { id: 'tool-h-' + tool.name }, (tool.type === 'action' ? 'Action ' : 'Tool ') + tool.name),
      h('p', {}, 'Used by: ', (users[tool.name] || []).map((agent, i) => [i ? ', ' : '', h('a', { href: '#agent-' + agent.uid }, agent.name || agent.uid)]), (users[tool.name] || []).length ? '' : 'no agent'),
      table('Fields of ' + tool.type + ' ' + tool.name + ', as the server stores them', ['Field', 'Value', 'Edit'], fieldRows('tool', tool.name, tool)),
      h('button', { type: 'button', class: 'danger', onclick: () => remove('tool', tool.name) }, 'Delete ' + tool.type + ' ' + tool.name)));
    bodyOf('resources').replaceChildren(overview, h('h3', {}, 'Tools and actions: ' + data.tools.length), ...toolCards, ...agentCards);
  }

  // ---- Knowledge base ----
  function renderKb(websites) {
    const cards = websites.map((site) => {
      const processed = site.counts.processed || 0;
      const progressId = 'progress-' + site.parentUniqueId;
      return h('article', { 'aria-labelledby': 'site-h-' + site.parentUniqueId, 'data-website': site.parentUniqueId },
        h('h3', { id: 'site-h-' + site.parentUniqueId }, site.url),
        h('p', {}, 'Status ', h('strong', { class: 'site-status' }, site.status), ' \u00b7 ', h('code', {}, site.parentUniqueId)),
        h('p', {}, h('label', { for: progressId }, 'Indexed ' + processed + ' of ' + site.total + ' '), h('progress', { id: progressId, max: site.total || 1, value: processed })),
        h('p', {}, Object.entries(site.counts).map(([status, n]) => status + ': ' + n).join(' \u00b7 ')),
        h('button', { type: 'button', onclick: () => processSite(site.parentUniqueId), disabled: site.total === 0 }, 'Index the discovered URLs of ' + site.url),
        table('Discovered URLs of ' + site.url + (site.total > site.discoveredUrls.length ? ' (first ' + site.discoveredUrls.length + ' of ' + site.total + ')' : ''), ['URL', 'Title', 'Status'],
          site.discoveredUrls.map((entry) => h('tr', {}, h('th', { scope: 'row', class: 'value' }, entry.url), h('td', {}, entry.title), h('td', { class: 's-' + entry.status }, entry.status)))));
    });
    bodyOf('kb').replaceChildren(h('p', {}, 'Websites: ' + websites.length + '. Indexing progress updates by itself.'), ...cards);
  }

  async function processSite(id) {
    try {
      await api('POST', '/websites/' + encodeURIComponent(id) + '/process');
      say('Indexing started for ' + id + '.');
      refresh(true);
    } catch (err) {
      say('Indexing not started: ' + err.message);
    }
  }

  // ---- Request log ----
  const filters = document.getElementById('filters');
  function statusMatches(wanted, status) {
    if (wanted === '') return true;
    const text = status === null ? '' : String(status);
    return /^\dxx$/i.test(wanted) ? text[0] === wanted[0] : text === wanted;
  }

  function renderRequests(log) {
    lastRequests = log;
    const method = filters.elements.method.value;
    const path = filters.elements.path.value;
    const wanted = filters.elements.status.value.trim();
    const kept = log.requests.filter((r) => (method === '' || r.method === method) && r.path.includes(path) && statusMatches(wanted, r.status)).reverse();
    const rows = kept.map((r) => {
      const details = h('details', { open: openBodies.has(r.seq), ontoggle: (event) => (event.target.open ? openBodies.add(r.seq) : openBodies.delete(r.seq)) },
        h('summary', {}, 'Body of request ' + r.seq), h('pre', { class: 'value' }, show(r.body)));
      return h('tr', { 'data-seq': r.seq },
        h('td', {}, r.seq), h('td', {}, r.time.slice(11, 23)), h('td', {}, r.method), h('th', { scope: 'row', class: 'value' }, r.path),
        h('td', { class: r.status === null ? '' : 'st-' + String(r.status)[0] }, r.status === null ? (r.fault ? 'dropped' : '\u2026') : r.status + (r.fault ? ' (injected)' : '')),
        h('td', {}, r.durationMs === undefined ? '' : r.durationMs + ' ms'),
        h('td', {}, r.onBehalfOf || ''),
        h('td', {}, r.body === null ? '' : details));
    });
    bodyOf('requests').replaceChildren(table('API requests, newest first: ' + kept.length + ' shown of ' + log.total + ' (the apikey header is never recorded)', ['#', 'Time', 'Method', 'Path', 'Status', 'Duration', 'onBehalfOf', 'Body'], rows));
  }
  filters.addEventListener('input', () => lastRequests && renderRequests(lastRequests));
  filters.addEventListener('submit', (event) => event.preventDefault());
  document.getElementById('clear-log').addEventListener('click', async () => {
    await api('DELETE', '/requests');
    say('Request log cleared.');
    refresh(true);
  });

  // ---- Knobs ----
  function renderKnobs(config) {
    const form = h('form', { class: 'knobs', id: 'knobs-form' });
    for (const [key, value] of Object.entries(config)) {
      const id = 'knob-' + key;
      let input;
      if (ENUMS[key]) input = h('select', { id, name: key }, ENUMS[key].map((option) => h('option', { value: option, selected: option === value }, String(option))));
      else if (typeof value === 'boolean') input = h('input', { id, name: key, type: 'checkbox', checked: value });
      else if (Array.isArray(value)) input = h('input', { id, name: key, value: value.join(', '), placeholder: 'comma-separated' });
      else input = h('input', { id, name: key, type: 'number', step: 'any', min: 0, value: value === null ? '' : value, placeholder: value === null ? 'off' : '' });
      form.append(h('label', { for: id }, key), input);
    }
    form.append(h('span'), h('button', { type: 'submit' }, 'Apply the knobs'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const changes = {};
      for (const [key, value] of Object.entries(config)) {
        const input = form.elements[key];
        let next;
        if (ENUMS[key]) next = typeof value === 'number' ? Number(input.value) : input.value;
        else if (typeof value === 'boolean') next = input.checked;
        else if (Array.isArray(value)) next = input.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
        else next = input.value === '' ? null : Number(input.value);
        if (JSON.stringify(next) !== JSON.stringify(value)) changes[key] = next;
      }
      try {
        renderKnobs(await api('POST', '/config', changes));
        say(Object.keys(changes).length ? 'Knobs applied: ' + Object.keys(changes).join(', ') + '.' : 'Nothing changed.');
      } catch (err) {
        say('Knobs not applied: ' + err.message);
      }
    });
    bodyOf('knobs').replaceChildren(h('p', {}, 'Faults, reference modes and knowledge-base knobs, as POST /__emulator/config sets them.'), form);
  }

  // ---- Routing and polling ----
  const SOURCES = {
    resources: ['/resources', renderResources],
    kb: ['/websites', renderKb],
    requests: ['/requests', renderRequests],
    knobs: ['/config', renderKnobs],
  };

  async function refresh(force) {
    const view = active;
    if (editing && !force) return;
    // The knobs form is not redrawn under the user's hands; it loads once per visit.
    if (view === 'knobs' && !force && shown.startsWith('knobs:')) return;
    try {
      const [path, render] = SOURCES[view];
      const data = await api('GET', path);
      const text = view + ':' + JSON.stringify(data);
      if (view !== active || (text === shown && !force) || (editing && !force)) return;
      shown = text;
      render(data);
    } catch (err) {
      say('The emulator did not answer: ' + err.message);
    }
  }

  function route() {
    const hash = location.hash.slice(1);
    let view = VIEWS.includes(hash) ? hash : '';
    if (!view) view = hash.startsWith('agent-') || hash.startsWith('tool-') ? 'resources' : active || 'resources';
    for (const name of VIEWS) {
      document.getElementById('view-' + name).hidden = name !== view;
      const link = document.querySelector('nav a[href="#' + name + '"]');
      if (name === view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (view !== active) {
      active = view;
      editing = false;
      shown = '';
      refresh(true).then(() => {
        const target = VIEWS.includes(hash) ? document.getElementById('h-' + view) : document.getElementById(hash);
        if (target) {
          if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
          target.focus();
        }
      });
    }
  }

  window.addEventListener('hashchange', route);
  route();
  setInterval(() => refresh(false), 1000);
})();
`;
