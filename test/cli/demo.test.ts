import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const demo = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));

describe('npm run demo', () => {
  it('applies the root agents.yaml to an in-process emulator, then shows no changes, with no key and no trace', async () => {
    const hadStateDir = existsSync(`${root}/.agentsync`);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: '1' };
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [demo], { cwd: root, env });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Emulator running at http:\/\/127\.0\.0\.1:\d+\/v3/);
    expect(stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to forget\./);
    expect(stdout).toMatch(/Apply complete: \d+ created, 0 updated, 0 forgotten\./);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('No changes. Environment "local" matches the manifest.');
    expect(existsSync(`${root}/.agentsync`)).toBe(hadStateDir);
  });
});
