// Where a plan applies, for its header: the effective base URL, with any password masked, and
// whether AGENTSYNC_BASE_URL overrode the manifest (an easy thing to forget in a shell).
import type { DesiredEnvironment } from './desired.js';
import type { PlanTarget } from './plan.js';

export const BASE_URL_OVERRIDE = 'AGENTSYNC_BASE_URL';

export function planTarget(environment: DesiredEnvironment, env: Readonly<Record<string, string | undefined>>): PlanTarget {
  const override = env[BASE_URL_OVERRIDE];
  return { baseUrl: withoutPassword(environment.baseUrl), ...(override ? { overriddenBy: BASE_URL_OVERRIDE } : {}) };
}

export function withoutPassword(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password === '') return url;
  parsed.password = '***';
  return parsed.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
}
