// The Agent Builder view of the dashboard's script (script.ts), and the knowledge base's tables of
// text entries and files: a part of the same function, so it uses that function's helpers (h,
// table, bodyOf). Read-only. The data comes from knowledge-view.ts, already bounded and clipped.
// Plain JavaScript in a string, ASCII only, as script.ts explains.
export const BUILDER_VIEW = String.raw`
  // ---- Agent Builder agents, text entries and files ----
  const KIND_WORD = { website: 'Website', text: 'Text entry', file: 'File', missing: 'Unknown id' };
  /** A status as a class name: s-indexed, s-waiting-for-bytes, s-no-longer-exists. */
  const statusCell = (status) => h('td', { class: 's-' + status.replace(/[^a-z]+/gi, '-') }, status);
  const more = (list) => (list.total > list.shown.length ? ' (first ' + list.shown.length + ' of ' + list.total + ')' : '');
  const agentLinks = (list) => (list.total === 0 ? 'no agent' : [list.shown.map((agent, i) => [i ? ', ' : '', h('a', { href: '#builder-agent-' + agent.uid }, agent.name)]), list.total > list.shown.length ? ' and ' + (list.total - list.shown.length) + ' more' : '']);

  function sizeText(bytes) {
    const units = [[1024 * 1024, 'MB'], [1024, 'KB']];
    for (const [unit, name] of units) if (bytes >= unit) return (bytes / unit).toFixed(1) + ' ' + name + ' (' + bytes + ' bytes)';
    return bytes + ' bytes';
  }

  function knowledgeTable(agent) {
    const rows = agent.knowledge.shown.map((source) => h('tr', { 'data-source': source.id },
      h('th', { scope: 'row' }, source.kind === 'missing' ? h('code', {}, source.name) : h('a', { href: '#source-' + source.id }, source.name)),
      h('td', {}, KIND_WORD[source.kind]),
      statusCell(source.status),
      h('td', { class: 'value' }, source.id)));
    return table('Knowledge of agent ' + agent.name + ': ' + agent.knowledge.total + ' attached' + more(agent.knowledge), ['Source', 'Kind', 'Status', 'Id'], rows);
  }

  function renderBuilder(data) {
    const yesNo = (value) => (value === null ? 'not set' : value ? 'yes' : 'no');
    const summary = table('Agent Builder agents: ' + data.total + more(data), ['Name', 'Model', 'Active', 'Description', 'Knowledge'], data.shown.map((agent) => h('tr', { 'data-builder-agent': agent.uid },
      h('th', { scope: 'row' }, h('a', { href: '#builder-agent-' + agent.uid }, agent.name)),
      h('td', {}, agent.model === null ? 'not set' : agent.model),
      h('td', {}, yesNo(agent.isActive)),
      h('td', {}, agent.description),
      h('td', {}, agent.knowledge.total + ' attached'))));
    const cards = data.shown.map((agent) => h('article', { id: 'builder-agent-' + agent.uid, 'aria-labelledby': 'builder-agent-h-' + agent.uid },
      h('h4', { id: 'builder-agent-h-' + agent.uid }, 'Agent ' + agent.name),
      h('p', {}, 'uid ', h('code', {}, agent.uid)),
      agent.knowledge.total === 0 ? h('p', {}, 'No knowledge attached.') : knowledgeTable(agent)));
    bodyOf('builder').replaceChildren(
      h('p', {}, 'Agents made with CometChat\u2019s Agent Builder, and the knowledge-base sources attached to each. Read-only; it updates by itself.'),
      ...(data.total === 0 ? [h('p', {}, 'No Agent Builder agents.')] : [summary, h('h3', {}, 'Each agent\u2019s knowledge'), ...cards]));
  }

  function textsTable(texts) {
    if (texts.total === 0) return h('p', {}, 'No text entries.');
    return table('Text entries: ' + texts.total + more(texts), ['Title', 'File name', 'Status', 'Length', 'Attached to'], texts.shown.map((text) => h('tr', { id: 'source-' + text.uniqueId, 'data-text': text.uniqueId },
      h('th', { scope: 'row' }, text.title),
      h('td', { class: 'value' }, text.fileName),
      statusCell(text.status),
      h('td', {}, text.length + ' characters'),
      h('td', {}, agentLinks(text.agents)))));
  }

  function uploadsTable(uploads) {
    if (uploads.total === 0) return h('p', {}, 'No files.');
    return table('Files: ' + uploads.total + more(uploads), ['File name', 'Size', 'MIME type', 'Status', 'Attached to'], uploads.shown.map((upload) => h('tr', { id: 'source-' + upload.uploadId, 'data-upload': upload.uploadId },
      h('th', { scope: 'row', class: 'value' }, upload.fileName),
      h('td', {}, sizeText(upload.fileSize)),
      h('td', { class: 'value' }, upload.mimeType),
      upload.waitingForBytes ? h('td', { class: 's-waiting-for-bytes' }, 'waiting for bytes', h('small', { class: 'why' }, 'the PUT to its upload URL never came; the API reports indexing')) : statusCell(upload.status),
      h('td', {}, agentLinks(upload.agents)))));
  }

`;
