// Where a state and its companion files live.
import path from 'node:path';
import { UserError } from '../../core/errors.js';

export const STATE_DIR = '.agentsync';

/** `.agentsync/<env>.state.json` in the manifest's folder. */
export function defaultStatePath(manifestFile: string, environment: string): string {
  if (environment === '' || /[/\\\0]/.test(environment)) {
    throw new UserError('environment_invalid', `environment name ${JSON.stringify(environment)} cannot be used in a file name`);
  }
  return path.join(path.dirname(manifestFile), STATE_DIR, `${environment}.state.json`);
}

export interface StateFiles {
  state: string;
  /** The version before the last write. */
  backup: string;
  /** JSON lines of entries recorded since the last write. */
  journal: string;
  lock: string;
}

export function stateFiles(statePath: string): StateFiles {
  return {
    state: statePath,
    backup: `${statePath}.backup`,
    journal: `${statePath}.journal`,
    lock: `${statePath}.lock`,
  };
}
