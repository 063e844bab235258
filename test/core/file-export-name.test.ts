// An uploaded file cannot be downloaded, so export names where the user puts it: files/<name>. The
// name is the server's, so it may hold anything: it must stay one plain name inside that folder.
import { describe, expect, it } from 'vitest';
import { fileKind } from '../../src/core/kinds/file/index.js';

const exported = (identity: string): unknown => fileKind.export?.entry({ spec: {}, identity, remoteId: 'u1' }, () => '');

describe("an exported file's path", () => {
  it('is files/<the server’s file name> for a plain name', () => {
    expect(exported('handbook.pdf')).toEqual({ file: 'files/handbook.pdf' });
  });

  it.each([
    ['../../etc/passwd.pdf', 'files/___.._etc_passwd.pdf'],
    ['..\\..\\boot.ini.txt', 'files/___.._boot.ini.txt'],
    ['/abs/path.md', 'files/_abs_path.md'],
    ['.hidden.csv', 'files/_hidden.csv'],
    ['a\u0000b\nc.txt', 'files/a_b_c.txt'],
    ['', 'files/file'],
  ])('flattens %j into one plain name in the folder: %s', (name, path) => {
    const entry = exported(name) as { file: string };
    expect(entry.file).toBe(path);
    expect(entry.file.split('/')).toHaveLength(2);
    expect(entry.file.startsWith('files/.')).toBe(false);
  });
});
