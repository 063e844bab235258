// Hostile state files (truncated, wrong version or target, hand-edited) and saved plans (stale or
// tampered with). The state used is a real one, made by applying the good manifest.
import { readFileSync, writeFileSync } from 'node:fs';
import { applyWith, type CaseFiles, type CaseRun, type HostileCase } from './cases.js';

type Json = Record<string, unknown>;

function readJson(path: string): Json {
  return JSON.parse(readFileSync(path, 'utf8')) as Json;
}

/** Rewrites the case's state file, then applies the good manifest against it. */
function editedState(name: string, edit: (state: Json, text: string) => Json | string | Uint8Array): HostileCase {
  return {
    name,
    setup: (files) => {
      const text = readFileSync(files.state, 'utf8');
      const next = edit(JSON.parse(text) as Json, text);
      writeFileSync(files.state, typeof next === 'string' || next instanceof Uint8Array ? next : `${JSON.stringify(next, null, 2)}\n`);
      return applyWith(files, files.manifest, { lineColIn: undefined, names: files.state });
    },
  };
}

function firstResource(state: Json): Json {
  const resources = state.resources as Record<string, Json>;
  const key = Object.keys(resources)[0];
  if (key === undefined) throw new Error('the good state has no resources');
  return resources[key] as Json;
}

export const stateCases: HostileCase[] = [
  editedState('truncated state', (_, text) => text.slice(0, Math.floor(text.length / 2))),
  editedState('empty state file', () => ''),
  editedState('state that is a JSON array', () => '[]\n'),
  editedState('binary state file', () => Uint8Array.from({ length: 512 }, (_, i) => (i * 31 + 7) % 256)),
  editedState('state version 2', (s) => ({ ...s, version: 2 })),
  editedState('state version as a string', (s) => ({ ...s, version: '1' })),
  editedState('state version missing', (s) => {
    const { version: _version, ...rest } = s;
    return rest;
  }),
  editedState('state of another environment', (s) => ({ ...s, environment: 'prod' })),
  editedState('state of another app', (s) => ({ ...s, appId: 'someone-else' })),
  editedState('state of another region', (s) => ({ ...s, region: 'eu' })),
  editedState('lineage that is not a UUID', (s) => ({ ...s, lineage: 'not-a-uuid' })),
  editedState('negative serial', (s) => ({ ...s, serial: -1 })),
  editedState('empty remoteId', (s) => {
    firstResource(s).remoteId = '';
    return s;
  }),
  editedState('resource of an unknown type', (s) => {
    firstResource(s).type = 'widget';
    return s;
  }),
  editedState('resources as a list', (s) => ({ ...s, resources: [] })),
  editedState('unknown key added by hand', (s) => ({ ...s, addedByHand: true })),
  editedState('salt too short', (s) => ({ ...s, salt: 'abc' })),
  {
    name: 'journal with a damaged line before the last',
    setup: (files) => {
      const journal = `${files.state}.journal`;
      const good = JSON.stringify({ op: 'forgotten', address: 'tool.get_weather' });
      writeFileSync(journal, `${good}\n{"op": "applied", "addr\n${good}\n`, { mode: 0o600 });
      return applyWith(files, files.manifest, { lineColIn: undefined, names: journal });
    },
  },
];

/** Saves a plan of `manifest` (changed so it has something to do), then breaks it with `spoil`. */
function savedPlan(name: string, spoil: (files: CaseFiles, planPath: string) => void | Promise<void>): HostileCase {
  return {
    name,
    setup: async (files): Promise<CaseRun> => {
      const manifest = files.write('agents.yaml', readFileSync(files.manifest, 'utf8').replace('Current weather for a city', 'Weather now, for any city'));
      const planPath = files.path('change.plan.json');
      // --offline: each case's emulator is empty, and these cases are about the plan file, not the server.
      const made = await files.cli(['plan', '--offline', '-f', manifest, '--state', files.state, '--out', planPath]);
      if (made.code !== 0) throw new Error(`plan --out failed: ${made.stderr}`);
      await spoil(files, planPath);
      return { args: ['apply', '--auto-approve', '-f', manifest, '--state', files.state, planPath], names: planPath };
    },
  };
}

function editPlan(planPath: string, edit: (plan: Json) => void): void {
  const plan = readJson(planPath);
  edit(plan);
  writeFileSync(planPath, `${JSON.stringify(plan, null, 2)}\n`);
}

export const planCases: HostileCase[] = [
  savedPlan('stale plan: the manifest changed after it was made', (files) => {
    const manifest = files.path('agents.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('Checking the weather', 'Looking at the sky'));
  }),
  savedPlan('stale plan: the state changed after it was made', async (files) => {
    const removed = await files.cli(['state', 'rm', 'website.docs', '-f', files.path('agents.yaml'), '--state', files.state]);
    if (removed.code !== 0) throw new Error(`state rm failed: ${removed.stderr}`);
  }),
  savedPlan('tampered plan: an action changed', (_, planPath) =>
    editPlan(planPath, (p) => {
      const changes = p.changes as Json[];
      const change = changes.find((c) => c.action === 'update');
      if (!change) throw new Error('no update in the saved plan');
      change.action = 'create';
    }),
  ),
  savedPlan('tampered plan: digest replaced', (_, planPath) => editPlan(planPath, (p) => void ((p.savedPlan as Json).digest = `sha256:${'0'.repeat(64)}`))),
  savedPlan('tampered plan: basis serial changed', (_, planPath) =>
    editPlan(planPath, (p) => {
      const basis = (p.savedPlan as Json).basis as Json;
      basis.serial = Number(basis.serial) + 1;
    }),
  ),
  savedPlan('truncated plan file', (_, planPath) => {
    const text = readFileSync(planPath, 'utf8');
    writeFileSync(planPath, text.slice(0, Math.floor(text.length / 2)));
  }),
  savedPlan('plan file that is not JSON', (_, planPath) => writeFileSync(planPath, 'this is not a plan\n')),
  savedPlan('plan file of another kind', (_, planPath) => editPlan(planPath, (p) => void ((p.savedPlan as Json).kind = 'terraform-plan'))),
];
