// Reads the local files a manifest's entries name (`file: kb/refunds.md`; core/local-files.ts finds
// them, each kind's rule says how to read), relative to the manifest file that names each one. A
// file's size is checked from `stat` before a byte is read; a `digest` file is hashed as a stream, so
// a 50 MB upload never sits in memory. Every problem is one message, which resolve turns into a
// diagnostic at the `file:` value.
import { createReadStream } from 'node:fs';
import type { readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import type { LocalFile, LocalFileRule } from '../../core/kinds/entry.js';
import { localFileRule, localFileSites, type LocalFileSite } from '../../core/local-files.js';
import type { ParsedManifest } from '../../core/parse.js';
import { hasCode } from '../files/error-code.js';
import { STDIN_NAME } from './manifest-file.js';

/** Files read at once: enough to overlap the disk's waits, few enough never to run out of descriptors. */
const AT_ONCE = 8;

/**
 * Reads every file the manifest's entries name, and attaches what it found to `parsed`. Read again
 * on every call, even for a parse reused from an earlier load of the same manifest text
 * (load-manifest.ts `parseOnce`): the files may have changed since (an edited kb/refunds.md must
 * plan an update in a process that planned before, such as the library's).
 */
export async function attachLocalFiles(parsed: ParsedManifest, cwd: string = process.cwd()): Promise<void> {
  if (parsed.value === undefined) return;
  const sites = localFileSites(parsed.value);
  const files = new Map<string, LocalFile | { problem: string }>();
  if (sites.length === 0) {
    parsed.localFiles = files;
    return;
  }
  // Loaded only when a manifest names a local file: every start of every command would pay for it (P3).
  const fs = await import('node:fs/promises');
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < sites.length) {
      const site = sites[next++]!;
      const rule = localFileRule(site.type);
      if (rule !== undefined) files.set(site.address, await readOne(fs, site, rule, folderOf(parsed, site, cwd)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, sites.length) }, worker));
  parsed.localFiles = files;
}

/** The folder a `file:` is relative to: that of the manifest file (the part) that writes it; stdin's is the working folder. */
function folderOf(parsed: ParsedManifest, site: LocalFileSite, cwd: string): string {
  const file = parsed.locator.partAt(site.path).locator.file;
  return file === STDIN_NAME ? cwd : dirname(resolve(cwd, file));
}

async function readOne(fs: { readFile: typeof readFile; stat: typeof stat }, site: LocalFileSite, rule: LocalFileRule<object>, folder: string): Promise<LocalFile | { problem: string }> {
  const { written } = site;
  if (written.includes('${')) return { problem: `${quoted(written)}: a file path is taken as written, so \${…} cannot stand in it` };
  if (written.trim() === '') return { problem: 'file must name a file' };
  const path = isAbsolute(written) ? written : resolve(folder, written);
  let bytes: number;
  try {
    const stats = await fs.stat(path);
    if (!stats.isFile()) return { problem: `${quoted(written)} is not a file` };
    bytes = stats.size;
  } catch (err) {
    if (hasCode(err, 'ENOENT', 'ENOTDIR')) return { problem: `${quoted(written)} does not exist (looked for ${path})` };
    return { problem: `${quoted(written)} cannot be read: ${(err as Error).message}` };
  }
  if (bytes > rule.maxBytes) return { problem: `${quoted(written)} is ${sizeText(bytes)}; the limit is ${sizeText(rule.maxBytes)}` };
  const file: LocalFile = { written, path, name: basename(path), bytes };
  try {
    if (rule.read === 'text') {
      const text = decodeUtf8(await fs.readFile(path));
      if (text === undefined) return { problem: `${quoted(written)} is not UTF-8 text` };
      file.text = text;
    } else {
      file.digest = await digestOf(path);
    }
  } catch (err) {
    return { problem: `${quoted(written)} cannot be read: ${(err as Error).message}` };
  }
  return file;
}

/** SHA-256 of the file, read as a stream. node:crypto loads only here, when a manifest names such a file (P3). */
async function digestOf(path: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch {
    return undefined;
  }
}

/** `62,914,560 bytes (60.0 MB)`: exact, and readable. */
function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${bytes.toLocaleString('en-US')} bytes (${mb.toFixed(1)} MB)` : `${bytes.toLocaleString('en-US')} bytes`;
}

function quoted(path: string): string {
  return JSON.stringify(path);
}
