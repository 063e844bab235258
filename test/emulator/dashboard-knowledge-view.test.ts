// The dashboard's presenter of Agent Builder agents and their knowledge (knowledge-view.ts): pure,
// so table-driven on records built here. The page that shows it is tested in Chromium
// (dashboard-builder-browser.test.ts).
import { describe, expect, it } from 'vitest';
import type { BuilderAgentRecord } from '../../src/core/agent-builder-wire.js';
import { agentsBySource, builderAgentsView, clip, SHOWN, textEntriesView, uploadsView, type KnowledgeRecords } from '../../src/emulator/dashboard/knowledge-view.js';
import type { StoredTextEntry, StoredUpload, Website } from '../../src/emulator/store.js';

const NOW = 1_000_000;

function agent(uid: string, createdAt: number, fields: Partial<BuilderAgentRecord> = {}): BuilderAgentRecord {
  return { uid, appId: 'app', name: `Agent ${uid}`, files: [], websites: [], createdAt, updatedAt: createdAt, ...fields };
}

function text(uniqueId: string, seq: number, fields: Partial<StoredTextEntry> = {}): StoredTextEntry {
  return { uniqueId, title: `Title ${uniqueId}`, text: 'abc', fileName: `${uniqueId}.md`, s3Key: 'k', createdAt: 10, updatedAt: 10, seq, indexedAt: NOW + 1, ...fields };
}

function upload(uploadId: string, seq: number, fields: Partial<StoredUpload> = {}): StoredUpload {
  const base: StoredUpload = { uploadId, fileName: `${uploadId}.pdf`, mimeType: 'application/pdf', fileSize: 2048, s3Key: 'k', signature: 's', expiresAt: NOW, createdAt: 10, updatedAt: 10, seq };
  return { ...base, content: { size: 2048, sha256: 'x' }, indexedAt: NOW - 1, ...fields };
}

const website: Website = {
  parentUniqueId: 'web_1',
  url: 'https://docs.example.com',
  discoveredUrls: [{ uniqueId: 'u1', url: 'https://docs.example.com/a', status: 'processed' }],
  lastBatchId: null,
  createdAt: 10,
  updatedAt: 10,
  seq: 1,
};

function records(fields: Partial<KnowledgeRecords>): KnowledgeRecords {
  return { agents: [], texts: new Map(), uploads: new Map(), websites: new Map([[website.parentUniqueId, website]]), now: NOW, ...fields };
}

const byId = <T>(items: readonly T[], id: (item: T) => string): Map<string, T> => new Map(items.map((item) => [id(item), item]));

describe("the dashboard's view of Agent Builder agents and their knowledge", () => {
  it('names each attached id by what it is, with its status, once, whichever array holds it; an id no source has is "no longer exists"', () => {
    const texts = byId([text('t1', 2)], (t) => t.uniqueId);
    const uploads = byId([upload('f1', 3), upload('f2', 4, { content: undefined, indexedAt: undefined })], (u) => u.uploadId);
    // The `files` mode of kbAttachArrays puts the website in `files`; a server may also list an id in both arrays.
    const concierge = agent('a1', 1, { model: 'gpt-4o', isActive: false, description: 'Orders', files: ['t1', 'web_1', 'f1', 'gone', 'f2'], websites: ['web_1'] });
    const view = builderAgentsView(records({ agents: [concierge], texts, uploads }));
    expect(view.total).toBe(1);
    const [shown] = view.shown;
    expect([shown?.name, shown?.model, shown?.isActive, shown?.description]).toEqual(['Agent a1', 'gpt-4o', false, 'Orders']);
    expect(shown?.knowledge).toEqual({
      total: 5,
      shown: [
        { id: 't1', kind: 'text', name: 'Title t1', status: 'indexing' },
        { id: 'web_1', kind: 'website', name: 'https://docs.example.com', status: 'indexed' },
        { id: 'f1', kind: 'file', name: 'f1.pdf', status: 'indexed' },
        { id: 'gone', kind: 'missing', name: 'gone', status: 'no longer exists' },
        { id: 'f2', kind: 'file', name: 'f2.pdf', status: 'waiting for bytes' },
      ],
    });
  });

  it('shows a field the server did not store (storeAsSent) as null, not as a guess', () => {
    const [shown] = builderAgentsView(records({ agents: [agent('a1', 1)] })).shown;
    expect([shown?.model, shown?.isActive, shown?.description]).toEqual([null, null, '']);
  });

  it('caps every list and clips long strings, saying how many there are', () => {
    const many = Array.from({ length: SHOWN.agents + 5 }, (_, i) =>
      agent(`a${i}`, i, { files: Array.from({ length: SHOWN.knowledgePerAgent + 3 }, (_, j) => `t${j}`), description: 'd'.repeat(5000) }),
    );
    const texts = byId(
      Array.from({ length: SHOWN.sources + 7 }, (_, i) => text(`t${i}`, i + 1, { title: 'T'.repeat(500), text: 'x'.repeat(5000) })),
      (t) => t.uniqueId,
    );
    const view = builderAgentsView(records({ agents: many, texts }));
    expect([view.total, view.shown.length, view.shown[0]?.uid]).toEqual([SHOWN.agents + 5, SHOWN.agents, `a${SHOWN.agents + 4}`]);
    expect([view.shown[0]?.knowledge.total, view.shown[0]?.knowledge.shown.length]).toEqual([SHOWN.knowledgePerAgent + 3, SHOWN.knowledgePerAgent]);
    expect(view.shown[0]?.description).toHaveLength(SHOWN.chars);
    expect(view.shown[0]?.description.endsWith('\u2026')).toBe(true);
    const entries = textEntriesView(records({ agents: many, texts }), agentsBySource(many));
    expect([entries.total, entries.shown.length]).toEqual([SHOWN.sources + 7, SHOWN.sources]);
    // Newest first: the last shown is t7, which every agent holds.
    const last = entries.shown.at(-1);
    expect([last?.uniqueId, last?.title.length, last?.length, last?.agents.total, last?.agents.shown.length]).toEqual(['t7', SHOWN.chars, 5000, SHOWN.agents + 5, SHOWN.agentsPerSource]);
    // The text itself never rides on the poll: only its length.
    expect(JSON.stringify(entries)).not.toContain('x'.repeat(100));
    expect(clip('short')).toBe('short');
  });

  it('lists text entries and uploads newest first, each with the agents it is attached to, newest agent first', () => {
    const agents = [agent('old', 1, { name: 'Old', files: ['t1', 'f1'] }), agent('new', 2, { name: 'New', files: ['t1'] })];
    const texts = byId([text('t1', 1, { createdAt: 10 }), text('t2', 2, { createdAt: 10 }), text('t0', 9, { createdAt: 5, text: 'hello' })], (t) => t.uniqueId);
    const uploads = byId([upload('f1', 3), upload('f2', 4, { content: undefined, indexedAt: undefined })], (u) => u.uploadId);
    const all = records({ agents, texts, uploads });
    const bySource = agentsBySource(agents);
    const entries = textEntriesView(all, bySource).shown;
    expect(entries.map((e) => e.uniqueId)).toEqual(['t2', 't1', 't0']);
    expect(entries[1]).toEqual({
      uniqueId: 't1',
      title: 'Title t1',
      fileName: 't1.md',
      status: 'indexing',
      length: 3,
      agents: {
        total: 2,
        shown: [
          { uid: 'new', name: 'New' },
          { uid: 'old', name: 'Old' },
        ],
      },
    });
    expect(entries[0]?.agents).toEqual({ total: 0, shown: [] });
    expect(uploadsView(all, bySource).shown).toEqual([
      { uploadId: 'f2', fileName: 'f2.pdf', fileSize: 2048, mimeType: 'application/pdf', status: 'waiting for bytes', waitingForBytes: true, agents: { total: 0, shown: [] } },
      { uploadId: 'f1', fileName: 'f1.pdf', fileSize: 2048, mimeType: 'application/pdf', status: 'indexed', waitingForBytes: false, agents: { total: 1, shown: [{ uid: 'old', name: 'Old' }] } },
    ]);
  });
});
