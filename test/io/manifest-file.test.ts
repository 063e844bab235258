// readManifestFile and loadDesired against real files in a temp dir.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../src/core/diagnostics.js';
import { UserError } from '../../src/core/errors.js';
import { loadDesired } from '../../src/io/manifest/load-manifest.js';
import { readManifestFile } from '../../src/io/manifest/manifest-file.js';

const dir = mkdtempSync(join(tmpdir(), 'agentsync-read-'));
const write = (name: string, data: string | Buffer) => {
  const file = join(dir, name);
  writeFileSync(file, data);
  return file;
};
const VALID = 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n';

describe('readManifestFile', () => {
  it('drops a UTF-8 BOM and keeps CRLF text intact', async () => {
    const file = write('bom.yaml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a: 1\r\n')]));
    expect(await readManifestFile(file)).toEqual({ file, text: 'a: 1\r\n' });
  });

  it('reports bytes that are not UTF-8 at their line and column', async () => {
    const file = write('latin1.yaml', Buffer.from([0x61, 0x3a, 0x0a, 0x62, 0x3a, 0x20, 0xe9, 0x0a]));
    const err = await readManifestFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as ManifestError).diagnostics[0]).toMatchObject({ line: 2, column: 4, message: expect.stringContaining('not valid UTF-8') });
  });

  it('refuses a missing file and a directory with a user error', async () => {
    await expect(readManifestFile(join(dir, 'nope.yaml'))).rejects.toMatchObject({ code: 'manifest_unreadable' });
    mkdirSync(join(dir, 'folder.yaml'));
    await expect(readManifestFile(join(dir, 'folder.yaml'))).rejects.toBeInstanceOf(UserError);
  });

  it('refuses a file over 10 MB', async () => {
    const file = write('big.yaml', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    await expect(readManifestFile(file)).rejects.toMatchObject({ code: 'manifest_invalid', message: expect.stringContaining('10 MB') });
  });
});

describe('loadDesired', () => {
  it('returns Desired and warnings', async () => {
    const file = write('ok.yaml', VALID);
    const loaded = await loadDesired({ file, env: {}, mode: 'plan' });
    expect(loaded.desired.environment.name).toBe('local');
    expect(loaded.warnings).toEqual([]);
  });

  it('throws one ManifestError listing every error as FILE:LINE:COL lines', async () => {
    const file = write('bad.yaml', 'version: 2\nenvironments:\n  local: { appId: local, region: xx }\n');
    const err = await loadDesired({ file, env: {}, mode: 'plan' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    const lines = (err as ManifestError).message.split('\n');
    expect(lines[0]).toBe(`${file} is not valid (2 errors):`);
    expect(lines[1]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:10: error: version must be 1`));
    expect((err as ManifestError).code).toBe('manifest_invalid');
  });
});
