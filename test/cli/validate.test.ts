// validate through the built CLI: the invalid corpus, hostile files, the examples, output formats.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus, unmatched, VALID_DIR, type ActualDiagnostic, type Fixture } from '../fixtures/corpus.js';
import { ROOT, runCli } from '../support/cli.js';

interface ValidateJson {
  valid: boolean;
  diagnostics: (ActualDiagnostic & { file: string; path: string })[];
}

/**
 * The corpus runs whole in-process (test/core/corpus.test.ts), through the use case and the JSON this
 * command prints. The built CLI runs the fixtures whose way in is its own: arguments (-e), the
 * environment, and bytes a reader must survive (BOM, CRLF, not UTF-8, NUL, an alias bomb, several
 * documents, …), plus one of each kind of schema and YAML error.
 */
const takesItsOwnPath = (f: Fixture): boolean => f.args.length > 0 || Object.keys(f.env).length > 0 || /^(hostile-|bom-|crlf-)/.test(f.name);
const ONE_OF_EACH_KIND = ['tool-missing-description', 'agent-unknown-tool', 'env-region-enum', 'yaml-indent-too-far', 'unset-variable', 'website-url-and-parent'];
const cliCorpus = loadCorpus().filter((f) => f.mode === 'validate' && (takesItsOwnPath(f) || ONE_OF_EACH_KIND.includes(f.name)));
const examples = readdirSync(join(ROOT, 'examples')).filter((name) => name.endsWith('.yaml'));

describe.concurrent('validate: invalid manifests through the built CLI', () => {
  it('runs every sampled fixture, the one of each kind included', () => {
    expect(cliCorpus.length).toBeGreaterThanOrEqual(20);
    for (const name of ONE_OF_EACH_KIND) expect(cliCorpus.map((f) => f.name)).toContain(name);
  });

  it.each(cliCorpus.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
    const result = await runCli(['validate', '-f', fixture.file, '--json', ...fixture.args], { env: fixture.env });
    expect(result.code).toBe(1);
    const output = JSON.parse(result.stdout) as ValidateJson;
    expect(output.valid).toBe(false);
    expect(Object.keys(output)).toEqual(['valid', 'diagnostics']);
    for (const d of output.diagnostics) expect(Object.keys(d).sort()).toEqual(['column', 'file', 'line', 'message', 'path', 'severity']);
    expect(unmatched(fixture.diagnostics, output.diagnostics), result.stdout).toEqual([]);
  });

  it('rejects a file over 10 MB without parsing it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentsync-big-'));
    const file = join(dir, 'agents.yaml');
    writeFileSync(file, 'version: 1\n# ' + 'x'.repeat(10 * 1024 * 1024) + '\n');
    const result = await runCli(['validate', '-f', file, '--json']);
    expect(result.code).toBe(1);
    const output = JSON.parse(result.stdout) as ValidateJson;
    expect(output.diagnostics[0]).toMatchObject({ line: 1, column: 1, severity: 'error' });
    expect(output.diagnostics[0]?.message).toContain('at most 10 MB');
  });

  it('explains a missing file in one line on stderr', async () => {
    const result = await runCli(['validate', '-f', 'no/such/agents.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: cannot read manifest no\/such\/agents\.yaml: no such file/);
    expect(result.stderr).not.toContain('    at ');
  });
});

describe.concurrent('validate: accepted files', () => {
  it.each(examples)('examples/%s is valid', async (name) => {
    const result = await runCli(['validate', '-f', join('examples', name)]);
    expect(result.stderr).not.toContain('error:');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('is valid');
  });

  it('the root agents.yaml is valid with no environment variables set', async () => {
    const result = await runCli(['validate', '--json'], { env: {} });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ valid: true, diagnostics: [] });
  });

  it.each(['bom.yaml', 'crlf.yaml', 'bom-crlf.yaml'])('accepts %s', async (name) => {
    const result = await runCli(['validate', '-f', join(VALID_DIR, name), '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ valid: true, diagnostics: [] });
  });

  it('a missing secret is a warning, so validate passes in CI without it', async () => {
    const result = await runCli(['validate', '-f', 'examples/external-agent.yaml', '--json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as ValidateJson;
    expect(output.valid).toBe(true);
    expect(output.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', path: 'agents.sales_graph.integrationMeta.headers.Authorization' })]);
  });
});

describe('validate: text output', () => {
  it('prints FILE:LINE:COL lines with the path, every error, and a count; no code frame off a terminal', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agentsync-text-')), 'agents.yaml');
    writeFileSync(file, 'version: 1\nenvironments:\n  local: { appId: local, region: moon }\ntools:\n  t:\n    displayname: T\n');
    const result = await runCli(['validate', '-f', file]);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toContain(`${file}:3:34: error: must be one of us, eu, in (got "moon") (at environments.local.region)`);
    expect(lines).toContain(`${file}:6:5: error: unknown key "displayname"; did you mean "displayName"? (at tools.t.displayname)`);
    expect(lines.at(-1)).toMatch(/^\d+ errors, 0 warnings$/);
    for (const line of lines.slice(0, -1)) expect(line.startsWith(`${file}:`)).toBe(true);
    expect(result.stdout).toBe('');
  });

  it('never prints a secret value', async () => {
    const result = await runCli(['validate', '-f', 'examples/external-agent.yaml'], { env: { LANGGRAPH_TOKEN: 'tok-very-secret-123' } });
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('tok-very-secret-123');
  });
});

describe('validate: no network', () => {
  let server: Server;
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('opens no connection, even with AGENTSYNC_BASE_URL pointing at a live server', async () => {
    const env = { AGENTSYNC_BASE_URL: `http://127.0.0.1:${port}/v3`, COMETCHAT_API_KEY: 'k', LANGGRAPH_TOKEN: 't' };
    const runs = await Promise.all([
      runCli(['validate'], { env }),
      runCli(['validate', '-f', 'examples/external-agent.yaml'], { env }),
      runCli(['validate', '-f', join(loadCorpus()[0]?.file ?? '')], { env }),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 1]);
    expect(connections).toBe(0);
  });
});
