// The dashboard's browser script, served as /__dashboard/app.js. Plain JavaScript for any current
// browser, kept here as a string so it bundles with the emulator; it has no dependencies. ASCII
// only (\u escapes for the rest): one other character makes V8 hold the whole CLI bundle as a
// two-byte string (scripts/bundle-plugins.mjs, asciiOnly).
import { KNOB_HELP } from './knob-help.js';
import { RESOURCES_VIEW } from './script-resources.js';

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
  /** One line per knob, shown beside it (knob-help.ts). */
  const KNOB_HELP = ${JSON.stringify(KNOB_HELP)};
  const ENUMS = { failMode: ['mixed', '503', 'drop'], createStatus: [200, 201], timestamps: ['iso', 'epoch'], agentList: ['full', 'no-uid', 'sparse'], kbAttachArrays: ['split', 'files'] };
  /** Knobs that are text, or null when off. */
  const TEXTS = new Set(['loseAnswerOn']);
  let active = '';
  let shown = '';
  let editing = false;
  const openBodies = new Set();
  /** The bodies of the open rows, by seq: fetched once, dropped when the row closes. */
  const bodies = new Map();
  let lastRequests = null;

  // The status line is a toast that stays in view; it clears itself so it never hides the page for long.
  let sayTimer;
  const say = (text) => {
    statusLine.textContent = text;
    clearTimeout(sayTimer);
    sayTimer = setTimeout(() => { statusLine.textContent = ''; }, 8000);
  };

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

${RESOURCES_VIEW}
  // ---- Knowledge base ----
  function renderKb(websites) {
    const cards = websites.map((site) => {
      // Skipped (excluded) and failed URLs are finished too: an indexed website's bar is full.
      const processed = site.counts.processed || 0;
      const skipped = site.counts.skipped || 0;
      const failed = site.counts.failed || 0;
      const done = processed + skipped + failed;
      const parts = [processed + ' indexed'];
      if (skipped) parts.push(skipped + ' skipped');
      if (failed) parts.push(failed + ' failed');
      const progressId = 'progress-' + site.parentUniqueId;
      return h('article', { 'aria-labelledby': 'site-h-' + site.parentUniqueId, 'data-website': site.parentUniqueId },
        h('h3', { id: 'site-h-' + site.parentUniqueId }, site.url),
        h('p', {}, 'Status ', h('strong', { class: 'site-status' }, site.status), ' \u00b7 ', h('code', {}, site.parentUniqueId)),
        h('p', {}, h('label', { for: progressId, class: 'progress-label' }, 'Done ' + done + ' of ' + site.total + ': ' + parts.join(', ') + ' '), h('progress', { id: progressId, max: site.total || 1, value: done })),
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

  /** The poll carries no bodies (they can be large): one is fetched when its row is opened, and kept while open. */
  function bodyDetails(r) {
    const pre = h('pre', { class: 'value' }, bodies.has(r.seq) ? bodies.get(r.seq) : r.bodyTruncated ? 'Loading\u2026' : show(r.body));
    const load = async () => {
      if (!r.bodyTruncated || bodies.has(r.seq)) return;
      try {
        const entry = await api('GET', '/requests/' + r.seq);
        bodies.set(r.seq, show(entry.body));
      } catch (err) {
        bodies.set(r.seq, 'The body could not be read: ' + err.message);
      }
      pre.textContent = bodies.get(r.seq);
    };
    const size = r.bodyTruncated ? ' (' + r.bodyLength + ' characters)' : '';
    const details = h('details', { open: openBodies.has(r.seq), ontoggle: (event) => {
      if (event.target.open) {
        openBodies.add(r.seq);
        load();
      } else {
        openBodies.delete(r.seq);
        bodies.delete(r.seq);
      }
    } }, h('summary', {}, 'Body of request ' + r.seq + size), pre);
    return details;
  }

  function renderRequests(log) {
    lastRequests = log;
    const method = filters.elements.method.value;
    const path = filters.elements.path.value;
    const wanted = filters.elements.status.value.trim();
    const kept = log.requests.filter((r) => (method === '' || r.method === method) && r.path.includes(path) && statusMatches(wanted, r.status)).reverse();
    const rows = kept.map((r) => {
      const status = r.status === null ? (r.fault ? 'dropped' : '\u2026') : r.status + (r.fault ? ' (injected)' : r.expected ? ' (expected)' : '');
      // An expected error (a PUT probe before a create) is part of a normal run: not shown as a failure.
      const statusClass = r.expected ? 'st-expected' : r.status === null ? '' : 'st-' + String(r.status)[0];
      return h('tr', { 'data-seq': r.seq },
        h('td', {}, r.seq), h('td', {}, r.time.slice(11, 23)), h('td', {}, r.method), h('th', { scope: 'row', class: 'value' }, r.path),
        h('td', { class: statusClass }, status, r.expected ? h('small', { class: 'why' }, r.expected) : null),
        h('td', {}, r.durationMs === undefined ? '' : r.durationMs + ' ms'),
        h('td', {}, r.onBehalfOf || ''),
        h('td', {}, r.body === null ? '' : bodyDetails(r)));
    });
    bodyOf('requests').replaceChildren(table('API requests, newest first: ' + kept.length + ' shown of ' + log.total + ' (the apikey header is never recorded)', ['#', 'Time', 'Method', 'Path', 'Status', 'Duration', 'onBehalfOf', 'Body'], rows));
  }
  filters.addEventListener('input', () => lastRequests && renderRequests(lastRequests));
  filters.addEventListener('submit', (event) => event.preventDefault());
  document.getElementById('clear-log').addEventListener('click', async () => {
    await api('DELETE', '/requests');
    // Numbering starts again at 1: a kept body would belong to another request.
    bodies.clear();
    openBodies.clear();
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
      else if (TEXTS.has(key)) input = h('input', { id, name: key, value: value ?? '', placeholder: 'off' });
      else if (Array.isArray(value)) input = h('input', { id, name: key, value: value.join(', '), placeholder: 'comma-separated' });
      else input = h('input', { id, name: key, type: 'number', step: 'any', min: 0, value: value === null ? '' : value, placeholder: value === null ? 'off' : '' });
      const helpId = id + '-help';
      input.setAttribute('aria-describedby', helpId);
      form.append(h('label', { for: id }, key), input, h('span', { id: helpId, class: 'help' }, KNOB_HELP[key] || ''));
    }
    form.append(h('span'), h('button', { type: 'submit' }, 'Apply the knobs'), h('span'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const changes = {};
      for (const [key, value] of Object.entries(config)) {
        const input = form.elements[key];
        let next;
        if (ENUMS[key]) next = typeof value === 'number' ? Number(input.value) : input.value;
        else if (typeof value === 'boolean') next = input.checked;
        else if (TEXTS.has(key)) next = input.value.trim() === '' ? null : input.value.trim();
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
