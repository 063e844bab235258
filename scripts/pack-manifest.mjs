// The package.json that goes into the tarball carries no script npm runs on install
// (docs/spec/distribution.md#package). `prepare` must stay in the clone's package.json, because it
// is what makes `npm ci` build dist/ (CONTRACT §1), but npm also lists it as an install script of
// a packed package and warns the user who installs it. So, around `npm pack` and `npm publish`:
//
//   node scripts/pack-manifest.mjs strip     (prepack)   set package.json aside, write it without them
//   node scripts/pack-manifest.mjs restore   (postpack)  put the original back
//
// npm reads package.json from disk when it packs, after prepack, so the tarball gets the stripped
// copy. If a pack dies between the two, the next `strip` (or `restore`) finds the copy set aside
// and puts it back first, so the clone's package.json is never lost. Both writes are renames.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = join(ROOT, 'package.json');
// Beside package.json, under a name npm never packs (package.json `files` lists what it packs).
const ASIDE = join(ROOT, '.package.json.before-pack');
/** Every script npm may run when the package is installed (npm's docs, "Life Cycle Operation Order"). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare', 'prepublish'];

function restore() {
  if (existsSync(ASIDE)) renameSync(ASIDE, MANIFEST);
}

function strip() {
  restore();
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  const scripts = Object.fromEntries(Object.entries(manifest.scripts ?? {}).filter(([name]) => !INSTALL_SCRIPTS.includes(name)));
  writeFileSync(ASIDE, text);
  const staged = `${MANIFEST}.stripped`;
  writeFileSync(staged, `${JSON.stringify({ ...manifest, scripts }, null, 2)}\n`);
  renameSync(staged, MANIFEST);
}

const action = process.argv[2];
if (action === 'strip') strip();
else if (action === 'restore') restore();
else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exitCode = 2;
}
