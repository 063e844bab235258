// plan's options and its --format values, shared by commands/plan.ts and multi-env-plan.ts (each
// imports them from here, so neither imports the other).
import { UserError } from '../core/errors.js';
import type { ManyEnvironmentOptions } from './options.js';
import type { ScopeOptions } from './scope-options.js';

export interface PlanOptions extends ManyEnvironmentOptions, ScopeOptions {
  out?: string;
  detailedExitcode?: boolean;
  format?: string;
  offline?: boolean;
}

const FORMATS = ['text', 'json', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw new UserError('usage', `--format must be one of ${FORMATS.join(', ')} (got "${value}")`);
}
