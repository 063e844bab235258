// Reading a manifest in many files: which files a folder stands for and in what order, the bounds
// that keep a folder of the wrong thing from being read, and the default manifest.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManifestError } from '../../../src/core/diagnostics.js';
import { defaultManifest } from '../../../src/io/manifest/manifest-location.js';
import { manifestFiles, readManifest } from '../../../src/io/manifest/manifest-parts.js';

describe('reading a manifest folder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-parts-io-'));
    for (const file of ['b.yaml', 'a.yml', 'A.YAML', 'sub/z.yaml', 'sub/deeper/a.yaml', 'notes.txt', '.hidden.yaml', '.git/config.yaml', 'node_modules/pkg/a.yaml', 'b-yaml']) {
      await mkdir(join(dir, 'm', file, '..'), { recursive: true });
      await writeFile(join(dir, 'm', file), 'version: 1\n');
    }
    await mkdir(join(dir, 'elsewhere'));
    await writeFile(join(dir, 'elsewhere', 'linked.yaml'), 'version: 1\n');
    await symlink(join(dir, 'elsewhere', 'linked.yaml'), join(dir, 'm', 'link.yaml'));
    // A link to a folder is not followed: it could point back up and loop.
    await symlink(join(dir, 'm'), join(dir, 'm', 'sub', 'loop'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('stands for every *.yaml and *.yml below it, in path order, skipping dot-names, node_modules and links to folders', async () => {
    const { paths, inParts } = await manifestFiles('m', dir);
    expect(inParts).toBe(true);
    expect(paths).toEqual(['m/A.YAML', 'm/a.yml', 'm/b.yaml', 'm/link.yaml', 'm/sub/deeper/a.yaml', 'm/sub/z.yaml']);
    expect(await manifestFiles('m/b.yaml', dir)).toEqual({ paths: ['m/b.yaml'], inParts: false, listed: new Set() });
    // `listed`: the files a folder's listing gave, not those named directly.
    expect(await manifestFiles(['m/b.yaml', 'm/sub'], dir)).toEqual({
      paths: ['m/b.yaml', 'm/sub/deeper/a.yaml', 'm/sub/z.yaml'],
      inParts: true,
      listed: new Set(['m/sub/deeper/a.yaml', 'm/sub/z.yaml']),
    });
  });

  it("keeps one file's text as it is, and names every part in the text a saved plan digests", async () => {
    expect((await readManifest('m/b.yaml', { cwd: dir })).text).toBe('version: 1\n');
    const read = await readManifest('m/sub', { cwd: dir });
    expect(read).toMatchObject({ name: 'm/sub', inParts: true, text: '--- m/sub/deeper/a.yaml\nversion: 1\n\n--- m/sub/z.yaml\nversion: 1\n' });
  });

  it('refuses a part linked to a file that does not exist, instead of leaving its resources out', async () => {
    // Before: the dangling link was skipped like a link to a folder, so a shared tools file not
    // checked out planned every tool in it away without a word.
    await mkdir(join(dir, 'dangling'));
    await writeFile(join(dir, 'dangling', 'env.yaml'), 'version: 1\n');
    await symlink(join(dir, 'not-checked-out', 'tools.yaml'), join(dir, 'dangling', 'tools.yaml'));
    const error = await manifestFiles('dangling', dir).catch((err: unknown) => err);
    expect((error as Error).message).toBe('cannot read manifest dangling/tools.yaml: it is a link to a file that does not exist; fix or remove the link');
    // A link that is not named as a part is none of the manifest's business.
    await rm(join(dir, 'dangling', 'tools.yaml'));
    await symlink(join(dir, 'not-checked-out', 'notes.txt'), join(dir, 'dangling', 'notes.txt'));
    expect((await manifestFiles('dangling', dir)).paths).toEqual(['dangling/env.yaml']);
  });

  it('refuses parts that together pass the 10 MB a manifest may hold', async () => {
    await mkdir(join(dir, 'big'));
    for (const name of ['1.yaml', '2.yaml']) await writeFile(join(dir, 'big', name), `# ${'x'.repeat(6 * 1024 * 1024)}\n`);
    const error = await readManifest('big', { cwd: dir }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).diagnostics[0]).toMatchObject({ file: 'big/2.yaml', message: expect.stringContaining('more than 10 MB together') });
  });

  it('finds the default: AGENTSYNC_MANIFEST, else agents.yaml or an agents/ folder, and refuses both', async () => {
    const project = join(dir, 'project');
    await mkdir(join(project, 'agents'), { recursive: true });
    expect(defaultManifest({}, project)).toBe('agents');
    expect(defaultManifest({ AGENTSYNC_MANIFEST: 'team/' }, project)).toBe('team/');
    expect(defaultManifest({ AGENTSYNC_MANIFEST: '' }, project)).toBe('agents');
    await writeFile(join(project, 'agents.yaml'), 'version: 1\n');
    // Both: only the user knows which is the manifest (issue 40); the variable still decides.
    expect(() => defaultManifest({}, project)).toThrow(/^both agents\.yaml and an agents\/ folder are here, and either could be the manifest; pass -f agents\.yaml or -f agents/);
    expect(defaultManifest({ AGENTSYNC_MANIFEST: 'agents.yaml' }, project)).toBe('agents.yaml');
    expect(defaultManifest({}, join(dir, 'nowhere'))).toBe('agents.yaml');
    const fileOnly = join(dir, 'file-only');
    await mkdir(fileOnly);
    await writeFile(join(fileOnly, 'agents.yaml'), 'version: 1\n');
    expect(defaultManifest({}, fileOnly)).toBe('agents.yaml');
  });
});
