// Calls of the knowledge-base routes, shared by the KB tests.
import { expect } from 'vitest';
import type { Reply, TestEmulator } from './helpers.js';

export const KB = '/ai-agents/agent-builder/knowledge-base';
export const urlsPath = (id: string): string => `${KB}/website/${id}/discovered-urls`;

export interface UrlRecord {
  urlId: string;
  uniqueId: string;
  url: string;
  title: string;
  status: string;
  retryCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface PageMeta {
  current: { limit: number; count: number };
  next?: { affix: string; cursor: string };
  previous?: { affix: string; cursor: string };
}

export interface UrlPage {
  data: UrlRecord[];
  meta: PageMeta;
}

export function scrape(emu: TestEmulator, body: Record<string, unknown>): Promise<Reply> {
  return emu.call('POST', `${KB}/website/scrape`, body);
}

/** Scrapes and returns the new website's id (the answer's crawlId). */
export async function scrapeId(emu: TestEmulator, body: Record<string, unknown>): Promise<string> {
  const reply = await scrape(emu, body);
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return (reply.json as { data: { crawlId: string } }).data.crawlId;
}

export async function listPage(emu: TestEmulator, id: string, query = ''): Promise<UrlPage> {
  const reply = await emu.call('GET', `${urlsPath(id)}${query}`);
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return reply.json as UrlPage;
}

/** Follows meta.next to the end (at most maxPages pages) and returns every record. */
export async function listAll(emu: TestEmulator, id: string, limit = 100, maxPages = 1000): Promise<UrlRecord[]> {
  const all: UrlRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const query = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { data, meta } = await listPage(emu, id, query);
    all.push(...data);
    if (!meta.next) return all;
    cursor = meta.next.cursor;
  }
  throw new Error(`more than ${maxPages} pages`);
}

/** The paths of the discovered URLs, below `origin`. */
export async function discoveredPaths(emu: TestEmulator, id: string, origin: string): Promise<string[]> {
  return (await listAll(emu, id)).map((record) => record.url.slice(origin.length));
}
