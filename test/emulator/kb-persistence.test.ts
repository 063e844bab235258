// --data keeps scraped websites, their discovered URLs with every field, and indexing in progress.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startTestEmulator } from './helpers.js';
import { KB, listAll, scrapeId, urlsPath } from './kb-helpers.js';

let folder: string;
let dataFile: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'agentsync-kb-'));
  dataFile = join(folder, 'data.json');
});
afterEach(() => rm(folder, { recursive: true, force: true }));

it('keeps a scraped website, its URLs and their progress across a restart', async () => {
  const first = await startTestEmulator({ dataFile, kb: { kbProcessingMs: 10_000_000 } });
  const id = await scrapeId(first, { url: 'https://docs.example.com', maxDepth: 2 });
  const records = await listAll(first, id);
  await first.call('POST', `${urlsPath(id)}/process`, { exclude: [records[0]?.urlId] });
  const gone = await scrapeId(first, { url: 'https://docs.example.com', maxDepth: 1 });
  await first.call('DELETE', `${KB}/website/${gone}`);
  const before = await listAll(first, id);
  await first.close();

  const saved = JSON.parse(await readFile(dataFile, 'utf8')) as { websites: Array<{ parentUniqueId: string; maxDepth?: number; discoveredUrls: Array<{ title?: string; finishesAt?: number }> }> };
  const website = saved.websites.find((entry) => entry.parentUniqueId === id);
  expect(website?.maxDepth).toBe(2);
  expect(website?.discoveredUrls[1]?.title).toBeTruthy();
  expect(saved.websites.some((entry) => entry.parentUniqueId === gone)).toBe(false);

  const second = await startTestEmulator({ dataFile, kb: { kbProcessingMs: 10_000_000 } });
  expect(await listAll(second, id)).toEqual(before);
  expect((await second.call('GET', urlsPath(gone))).status).toBe(404);
  // Progress carries on from the stored finishing times.
  await second.admin('POST', '/clock', { advanceMs: 10_000_000 });
  expect((await listAll(second, id)).map((record) => record.status)).toEqual(['skipped', ...before.slice(1).map(() => 'processed')]);
  // A website made after the restart pages after the stored ones in the knowledge-base list.
  const later = await scrapeId(second, { url: 'https://docs.example.com', maxDepth: 1 });
  const list = (await second.call('GET', `${KB}?start=0&end=0&limit=2`)).json as { data: Array<{ uniqueId: string }> };
  expect(list.data.map((entry) => entry.uniqueId)).toEqual([later, id]);
  await second.close();
});
