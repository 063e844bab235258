// Writes the starter files. A file that exists is never touched, except that .gitignore gets the
// lock line appended when it lacks it.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type InitOutcome = 'created' | 'skipped' | 'appended' | 'present';

export interface InitResult {
  path: string;
  outcome: InitOutcome;
}

export async function initProject(dir: string, files: { manifest: string; schema: string; gitignoreLine: string; schemaFile: string }): Promise<InitResult[]> {
  await mkdir(dir, { recursive: true });
  return [
    await createExclusive(join(dir, 'agents.yaml'), files.manifest),
    await createExclusive(join(dir, files.schemaFile), files.schema),
    await ensureLine(join(dir, '.gitignore'), files.gitignoreLine),
  ];
}

async function createExclusive(path: string, content: string): Promise<InitResult> {
  try {
    await writeFile(path, content, { flag: 'wx' });
    return { path, outcome: 'created' };
  } catch (err) {
    if ((err as { code?: string }).code === 'EEXIST') return { path, outcome: 'skipped' };
    throw err;
  }
}

async function ensureLine(path: string, line: string): Promise<InitResult> {
  let existing: string;
  try {
    existing = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
    return createExclusive(path, line + '\n');
  }
  if (existing.split(/\r?\n/).some((l) => l.trim() === line)) return { path, outcome: 'present' };
  await appendFile(path, (existing === '' || existing.endsWith('\n') ? '' : '\n') + line + '\n');
  return { path, outcome: 'appended' };
}
