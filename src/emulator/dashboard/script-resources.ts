// The Agents and tools view of the dashboard's script (script.ts): a part of the same function, so
// it uses that function's helpers (h, table, api, say, refresh, bodyOf) and state (editing).
// Plain JavaScript in a string, ASCII only, as script.ts explains.
export const RESOURCES_VIEW = String.raw`
  // ---- Agents and tools ----
  /** name: how the page calls the record in words (an agent's name, a tool's name), never a bare uid when a name exists. */
  function fieldRows(kind, id, record, name) {
    const rows = [];
    for (const [key, value] of Object.entries(record)) {
      if (kind === 'tool' && key === 'tool' && value && typeof value === 'object') {
        for (const [inner, innerValue] of Object.entries(value)) rows.push(fieldRow(kind, id, 'tool.' + inner, inner, innerValue, name));
      } else rows.push(fieldRow(kind, id, key, key, value, name));
    }
    return rows;
  }

  function fieldRow(kind, id, label, field, value, name) {
    const cell = h('td', { class: 'value' });
    if (kind === 'agent' && (field === 'tools' || field === 'actions') && Array.isArray(value)) {
      value.forEach((name, i) => cell.append(i ? ', ' : '', h('a', { href: '#tool-' + name }, name)));
      if (value.length === 0) cell.append('[]');
    } else cell.append(show(value));
    // A tool's name is its identity (PUT cannot rename); an agent's name is an ordinary field.
    const editable = !SERVER_FIELDS.has(label) && !(kind === 'tool' && label === 'name');
    const actions = h('td', {}, editable ? h('button', { type: 'button', 'aria-label': 'Edit ' + label, onclick: () => editField(kind, id, field, label, value, cell, name) }, 'Edit') : '');
    return h('tr', { 'data-field': label }, h('th', { scope: 'row' }, label), cell, actions);
  }

  function editField(kind, id, field, label, value, cell, name) {
    editing = true;
    const inputId = 'edit-' + kind + '-' + label.replace(/\W/g, '_');
    const isText = typeof value === 'string';
    const feedbackId = inputId + '-feedback';
    // Feedback goes beside the field (the page can be thousands of pixels long), and to the toast.
    const feedback = h('p', { id: feedbackId, class: 'feedback', role: 'alert' });
    const area = h('textarea', { id: inputId, name: 'value', 'aria-describedby': feedbackId });
    area.value = value === undefined ? '' : show(value);
    const form = h('form', { class: 'edit' },
      h('label', { for: inputId }, 'New ' + label + (isText ? '' : ' (JSON)')), area,
      h('button', { type: 'submit' }, 'Save'), ' ',
      h('button', { type: 'button', onclick: () => { editing = false; refresh(true); } }, 'Cancel'), feedback);
    const tell = (text) => { feedback.textContent = text; say(text); };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      let next;
      try {
        next = isText ? area.value : JSON.parse(area.value);
      } catch (err) {
        tell('Not saved: the new ' + label + ' is not valid JSON (' + err.message + ').');
        area.setAttribute('aria-invalid', 'true');
        area.focus();
        return;
      }
      try {
        await api('PATCH', '/' + kind + 's/' + encodeURIComponent(id), { field, value: next });
        say('Saved ' + label + ' of ' + kind + ' ' + name + '. Run "agentsync plan": it shows this as drift.');
        editing = false;
        refresh(true);
      } catch (err) {
        tell('Not saved: ' + err.message);
      }
    });
    cell.replaceChildren(form);
    area.focus();
  }

  async function remove(kind, id, name) {
    if (!window.confirm('Delete ' + kind + ' ' + name + '?')) return;
    try {
      await api('DELETE', '/' + kind + 's/' + encodeURIComponent(id));
      say('Deleted ' + kind + ' ' + name + '.');
      refresh(true);
    } catch (err) {
      say('Not deleted: ' + err.message);
    }
  }

  const SEED_MARK = ' (seed data)';
  /** The client's records first, the seed's last: what a developer applied is what they came to see. */
  const clientFirst = (records, isSeed) => [...records.filter((r) => !isSeed(r)), ...records.filter(isSeed)];
  const links = (names, prefix, label) => names.map((name, i) => [i ? ', ' : '', h('a', { href: '#' + prefix + name }, label ? label(name) : name)]);

  function renderResources(data) {
    const seedTools = new Set(data.seed.tools);
    const seedAgents = new Set(data.seed.agents);
    const agents = clientFirst(data.agents, (agent) => seedAgents.has(agent.uid));
    const tools = clientFirst(data.tools, (tool) => seedTools.has(tool.name));
    const agentName = (agent) => (agent.name || agent.uid) + (seedAgents.has(agent.uid) ? SEED_MARK : '');
    const toolName = (tool) => tool.name + (seedTools.has(tool.name) ? SEED_MARK : '');
    const users = {};
    for (const agent of agents) for (const name of [...agent.tools, ...agent.actions]) (users[name] = users[name] || []).push(agent);
    const usedBy = (tool) => (users[tool.name] || []).map((agent, i) => [i ? ', ' : '', h('a', { href: '#agent-' + agent.uid }, agent.name || agent.uid)]);
    const agentsTable = table('Agents: ' + agents.length, ['Name', 'uid', 'Tools', 'Actions'], agents.map((agent) => h('tr', { 'data-agent': agent.uid },
      h('th', { scope: 'row' }, h('a', { href: '#agent-' + agent.uid }, agentName(agent))),
      h('td', { class: 'value' }, agent.uid),
      h('td', {}, links(agent.tools, 'tool-')),
      h('td', {}, links(agent.actions, 'tool-')))));
    const toolsTable = table('Tools and actions: ' + tools.length, ['Name', 'Type', 'Display name', 'Used by'], tools.map((tool) => h('tr', { 'data-tool': tool.name },
      h('th', { scope: 'row' }, h('a', { href: '#tool-' + tool.name }, toolName(tool))),
      h('td', {}, tool.type),
      h('td', {}, tool.displayName),
      h('td', {}, (users[tool.name] || []).length ? usedBy(tool) : 'no agent'))));
    const agentCards = agents.map((agent) => h('article', { id: 'agent-' + agent.uid, 'aria-labelledby': 'agent-h-' + agent.uid },
      h('h4', { id: 'agent-h-' + agent.uid }, 'Agent ' + agentName(agent)),
      table('Fields of agent ' + (agent.name || agent.uid) + ', as the server stores them', ['Field', 'Value', 'Edit'], fieldRows('agent', agent.uid, agent, agent.name || agent.uid)),
      h('button', { type: 'button', class: 'danger', onclick: () => remove('agent', agent.uid, agent.name || agent.uid) }, 'Delete agent ' + (agent.name || agent.uid))));
    const toolCards = tools.map((tool) => h('article', { id: 'tool-' + tool.name, 'aria-labelledby': 'tool-h-' + tool.name },
      h('h4', { id: 'tool-h-' + tool.name }, (tool.type === 'action' ? 'Action ' : 'Tool ') + toolName(tool)),
      h('p', {}, 'Used by: ', usedBy(tool), (users[tool.name] || []).length ? '' : 'no agent'),
      table('Fields of ' + tool.type + ' ' + tool.name + ', as the server stores them', ['Field', 'Value', 'Edit'], fieldRows('tool', tool.name, tool, tool.name)),
      h('button', { type: 'button', class: 'danger', onclick: () => remove('tool', tool.name, tool.name) }, 'Delete ' + tool.type + ' ' + tool.name)));
    // Both summaries first, then the agents' details, then the tools' (an agent links down to its tools).
    bodyOf('resources').replaceChildren(agentsTable, toolsTable, h('h3', {}, 'Agents'), ...agentCards, h('h3', {}, 'Tools and actions'), ...toolCards);
  }

`;
