// The README's "Clone a region" recipe, run as written: export the us app, add an eu environment
// (a second emulator stands in for eu through its baseUrl), import what eu already has, apply to
// eu. Afterwards both apps hold the same tools and agents.
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY } from '../support/emulator.js';
import { appContents, DEMO_MANIFEST, DEMO_SECRET, MODES, openLab, writesOf, type Lab } from './lifecycle-fixture.js';

describe.each(MODES)('cloning a region ($name)', (mode) => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await openLab();
  });
  afterAll(() => lab.close());

  it('export from us, add eu, import, apply -e eu: the eu app becomes a copy', async () => {
    const us = await lab.emulator({ putCreates: mode.putCreates });
    const eu = await lab.emulator({ putCreates: mode.putCreates });
    const applied = await lab.cli(us, ['apply', '--auto-approve', '-f', DEMO_MANIFEST, '--state', lab.path('us-demo.json')], { RETURNS_TOKEN: DEMO_SECRET });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await appContents(eu)).not.toEqual(await appContents(us));
    await fetch(`${us.origin}/__emulator/requests`, { method: 'DELETE' });

    // The project's manifest names the us app; no AGENTSYNC_BASE_URL from here on, each environment has its own.
    await writeFile(lab.path('agents.yaml'), `version: 1\nenvironments:\n  us: { appId: local, region: us, baseUrl: "${us.url}" }\n`);
    // 1. export
    const exported = await lab.cli(undefined, ['export', '-e', 'us', '--out', 'app.yaml']);
    expect(exported.code, exported.stderr).toBe(0);
    // (edit) add the eu environment, with its own key
    const text = await readFile(lab.path('app.yaml'), 'utf8');
    await writeFile(lab.path('app.yaml'), text.replace('environments:\n', `environments:\n  eu:\n    appId: local\n    region: eu\n    baseUrl: "${eu.url}"\n    apiKeyEnv: EU_API_KEY\n`));
    const env = { EU_API_KEY: API_KEY, COMETCHAT_API_KEY: '', AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION: DEMO_SECRET };
    // 2. import what eu already has (its own search_web)
    const imported = await lab.cli(undefined, ['import', '-f', 'app.yaml', '-e', 'eu'], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trimEnd().split('\n').at(-1)).toBe('Imported 1 resource.');
    // 3. apply to eu
    const cloned = await lab.cli(undefined, ['apply', '-f', 'app.yaml', '-e', 'eu', '--auto-approve'], env);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(cloned.stdout).toContain('Apply complete: 8 created, 0 updated, 0 forgotten.');

    expect(await appContents(eu)).toEqual(await appContents(us));
    const again = await lab.cli(undefined, ['plan', '-f', 'app.yaml', '-e', 'eu', '--detailed-exitcode'], env);
    expect(again.code, again.stdout).toBe(0);
    // The us app was only ever read.
    expect(await writesOf(us)).toEqual([]);
  });
});
