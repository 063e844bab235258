// `agentsync init`: a starter that validates, the lock line in .gitignore, and no overwrites.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'agentsync-init-'));

describe('agentsync init', () => {
  it('writes a starter that validates, its schema and the .gitignore line', async () => {
    const dir = join(fresh(), 'project');
    const result = await runCli(['init', dir]);
    expect(result.code).toBe(0);
    const manifest = readFileSync(join(dir, 'agents.yaml'), 'utf8');
    expect(manifest.split('\n')[0]).toBe('# yaml-language-server: $schema=./agentsync.schema.json');
    expect(JSON.parse(readFileSync(join(dir, 'agentsync.schema.json'), 'utf8'))).toMatchObject({ title: expect.stringContaining('agentsync') });
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('.agentsync/*.lock\n');
    const validate = await runCli(['validate', '-f', join(dir, 'agents.yaml')], { env: {} });
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
  });

  it('never overwrites, and does not duplicate the .gitignore line', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'agents.yaml'), 'mine\n');
    writeFileSync(join(dir, '.gitignore'), 'node_modules');
    const first = await runCli(['init'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('skipped');
    expect(readFileSync(join(dir, 'agents.yaml'), 'utf8')).toBe('mine\n');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n.agentsync/*.lock\n');
    const schemaBefore = readFileSync(join(dir, 'agentsync.schema.json'), 'utf8');
    writeFileSync(join(dir, 'agentsync.schema.json'), '{"edited":true}\n');

    const second = await runCli(['init', '.'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n.agentsync/*.lock\n');
    expect(readFileSync(join(dir, 'agentsync.schema.json'), 'utf8')).toBe('{"edited":true}\n');
    expect(schemaBefore).toContain('"$id"');
  });

  it('writes nothing beside an agents.yml, which an agents.yaml would take over from whenever -f is left out', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'agents.yml'), 'mine\n');
    const result = await runCli(['init'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Error: agents.yml is here (a manifest read with -f agents.yml?); init would write agents.yaml beside it, read instead of it whenever -f is left out, so it wrote nothing\n',
    );
    expect(readdirSync(dir)).toEqual(['agents.yml']);
    expect(existsSync(join(dir, 'agents.yaml'))).toBe(false);
  });
});
