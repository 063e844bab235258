// --var-file read from real files: bounded like the manifest (size, UTF-8, alias bombs, depth), so
// hostile input is one clear error naming the file, never "internal error … please report it".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { readVarOverrides } from '../../../src/io/manifest/var-overrides.js';

const dir = mkdtempSync(join(tmpdir(), 'agentsync-varfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Ten levels of ten: 10^7 nodes once expanded. */
const ALIAS_BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
  ...'bcdefg'.split('').map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefg'[i]}`).join(',')}]`),
  'model: [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]',
].join('\n');

async function refusal(varFile: string): Promise<UserError> {
  const error: unknown = await readVarOverrides({ varFile }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(UserError);
  return error as UserError;
}

describe('--var-file bounds', () => {
  it('reads a plain map of vars', async () => {
    expect(await readVarOverrides({ varFile: file('ok.yaml', 'model: gpt-5\n') })).toEqual({ model: 'gpt-5' });
  });

  it('refuses /dev/zero at the size bound instead of reading forever', async () => {
    const error = await refusal('/dev/zero');
    expect(error.message).toBe('--var-file /dev/zero: the file is larger than 10 MB; a var file may be at most 10 MB');
  });

  it('refuses a regular file over the bound before reading it', async () => {
    const big = file('big.yaml', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    expect((await refusal(big)).message).toBe(`--var-file ${big}: the file is 10.0 MB; a var file may be at most 10 MB`);
  });

  it('refuses an alias bomb with a position, as the manifest does', async () => {
    const bomb = file('bomb.yaml', ALIAS_BOMB);
    expect((await refusal(bomb)).message).toMatch(new RegExp(`^--var-file ${bomb}:\\d+:\\d+: aliases expand to more than 10000 nodes; this looks like an alias bomb$`));
  });

  it('refuses bytes that are not UTF-8, and a folder', async () => {
    const latin1 = file('latin1.yaml', Buffer.from([0x6d, 0x3a, 0x20, 0xe9, 0x0a]));
    expect((await refusal(latin1)).message).toBe(`--var-file ${latin1}:1:4: the file is not valid UTF-8 (byte 0xe9 at offset 3); save it as UTF-8`);
    expect((await refusal(dir)).message).toBe(`cannot read ${dir}: it is a directory`);
  });

  it('refuses nesting deeper than the manifest allows', async () => {
    const deep = file('deep.yaml', `model: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    expect((await refusal(deep)).message).toMatch(new RegExp(`^--var-file ${deep}:\\d+:\\d+: .*nested`));
  });
});
