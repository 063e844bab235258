// Checks a state file's text before anything trusts it. A damaged state is reported, never
// repaired or overwritten: the user decides, with the previous version at `<state>.backup`.
import { STATE_VERSION, stateSchema, type State } from '../../core/state.js';
import { UserError } from '../../core/errors.js';
import { MAX_STORED_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import type { StateTarget } from './store.js';
import { stateFiles } from './paths.js';

/** Parses and validates a state file's text; returns why it cannot be used instead of throwing. */
export function checkStateText(text: string): { state: State } | { problem: string } {
  if (text.trim() === '') return { problem: 'the file is empty (truncated?)' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { problem: `it is not valid JSON (${(err as Error).message}); it may be truncated or edited by hand` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { problem: 'it is not a JSON object' };
  if (nestedDeeperThan(raw, MAX_STORED_JSON_DEPTH)) return { problem: `it is nested more than ${MAX_STORED_JSON_DEPTH} levels deep, which no state agentsync writes is` };
  const version = (raw as { version?: unknown }).version;
  if (version !== STATE_VERSION) {
    const newer = typeof version === 'number' && version > STATE_VERSION;
    return {
      problem: newer
        ? `it has state version ${version}, written by a newer agentsync; this one understands version ${STATE_VERSION}`
        : `it has an unknown state version ${JSON.stringify(version)}; this agentsync understands version ${STATE_VERSION}`,
    };
  }
  const parsed = stateSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${formatPath(i.path)}: ${i.message}`);
    const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
    return { problem: `it does not match the state format: ${issues.join('; ')}${more}` };
  }
  return { state: parsed.data };
}

/** Fields of `target` that are given must match the state's. */
export function targetMismatch(state: State, target: Partial<StateTarget>): string | null {
  const wrong = (['environment', 'appId', 'region'] as const).filter((k) => target[k] !== undefined && target[k] !== state[k]);
  if (wrong.length === 0) return null;
  const theirs = `environment "${state.environment}" (appId ${state.appId}, region ${state.region})`;
  const wanted = wrong.map((k) => `${k} ${JSON.stringify(target[k])}`).join(', ');
  if (wrong.includes('environment')) {
    const usual = target.environment === undefined ? '' : ` (by default .agentsync/${target.environment}.state.json beside the manifest)`;
    return `it belongs to ${theirs}, but this run targets ${wanted}; pass this environment's own state file with --state${usual}`;
  }
  // Same environment, another app or region: the manifest was pointed elsewhere since this state was written.
  return `it belongs to ${theirs}, but this run targets ${wanted}; if the environment now points at another app, keep this file for the old one and pass a new --state path to start an empty state for the new one`;
}

/** A sound state of another environment: there is nothing to restore, only the right file to pass. */
export function wrongTargetState(statePath: string, problem: string): UserError {
  return new UserError('state_invalid', `state file ${statePath} cannot be used: ${problem}. It was left unchanged.`, { file: statePath });
}

/** Throws `state_invalid` when the state belongs to another environment, app or region. */
export function assertTargetMatches(state: State, target: Partial<StateTarget>, statePath: string): void {
  const problem = targetMismatch(state, target);
  if (problem !== null) throw wrongTargetState(statePath, problem);
}

/**
 * The one error for a state that cannot be used. `backupExists` null means unknown.
 * It always says that nothing was changed and where the previous version is.
 */
export function damagedState(statePath: string, problem: string, backupExists: boolean | null): UserError {
  const { backup } = stateFiles(statePath);
  const restore =
    backupExists === false
      ? `There is no ${backup} to restore from: repair the file by hand, or move it away to start an empty state (every resource would then be planned as new).`
      : `The previous version is kept at ${backup}; after checking it, restore it with: cp ${shellQuote(backup)} ${shellQuote(statePath)}`;
  return new UserError('state_invalid', `state file ${statePath} cannot be used: ${problem}. It was left unchanged. ${restore}`, {
    file: statePath,
    backup,
  });
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p) => (typeof p === 'string' && /^[A-Za-z_$][\w$]*$/.test(p) ? p : JSON.stringify(String(p)))).join('.');
}

function shellQuote(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
