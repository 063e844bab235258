// What the text and markdown renderings of `agentsync diff` share: the summary line, how a group
// reads, the command that fixes a difference, and how a value prints. Values arrive with their
// sensitive ones already "(sensitive)" (core/env-diff), and print as JSON, so nothing in them can
// drive a terminal or break a table.
import type { JsonValue } from '../core/api-types.js';
import { canonicalJson } from '../core/canonical.js';
import type { EnvironmentsDiff, FieldRow, FieldSide, ResourceDiff } from '../core/env-diff/types.js';
import { countOf } from '../core/plural.js';
import { SENSITIVE_PLACEHOLDER } from '../core/plan.js';

/** `2 resources differ (1 drift in eu, 1 only in us); 1 intended difference; 14 identical.` */
export function diffSummaryLine(diff: EnvironmentsDiff): string {
  const { summary } = diff;
  const [a, b] = [diff.environments[0].name, diff.environments[1].name];
  const parts: string[] = [];
  if (summary.drift[0] > 0) parts.push(`${summary.drift[0]} drift in ${a}`);
  if (summary.drift[1] > 0) parts.push(`${summary.drift[1]} drift in ${b}`);
  if (summary.only[0] > 0) parts.push(`${summary.only[0]} only in ${a}`);
  if (summary.only[1] > 0) parts.push(`${summary.only[1]} only in ${b}`);
  if (summary.differs > 0) parts.push(`${summary.differs} unmanaged on both`);
  const differ = `${countOf(summary.differ, 'resource')} ${summary.differ === 1 ? 'differs' : 'differ'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
  const intended = diff.mode === 'live-only' ? '' : `; ${countOf(summary.intended, 'intended difference')}`;
  return `${differ}${intended}; ${summary.identical} identical.`;
}

/** The heading's words for a resource: `drift in eu`, `only in us (unmanaged)`, `intended difference`. */
export function groupLabel(resource: ResourceDiff, mode: EnvironmentsDiff['mode']): string {
  switch (resource.group) {
    case 'drift': {
      const missing = resource.sides.filter((side) => side.declared && !side.present).map((side) => side.environment);
      const where = (resource.driftIn ?? []).join(' and ');
      return missing.length > 0 ? `drift: missing on ${missing.join(' and ')}'s server, which the manifest declares it for` : `drift in ${where}`;
    }
    case 'only':
      return mode === 'live-only' ? `only in ${resource.onlyIn ?? ''}` : `only in ${resource.onlyIn ?? ''}, unmanaged (no manifest declares it there)`;
    case 'differs':
      return mode === 'live-only' ? 'differs' : 'differs, unmanaged on both';
    case 'intended': {
      const declared = resource.sides.filter((side) => side.declared).map((side) => side.environment);
      const notHere = resource.sides.filter((side) => !side.declared);
      if (notHere.length === 0) return 'intended difference';
      const also = notHere.filter((side) => side.present).map((side) => `; ${side.environment} holds one too, not managed there`);
      return `intended: the manifest declares it for ${declared.join(' and ')} only${also.join('')}`;
    }
    default: {
      const _exhaustive: never = resource.group;
      return _exhaustive;
    }
  }
}

/** The commands that bring a difference back, one per line. */
export function fixLines(resource: ResourceDiff): string[] {
  if (resource.group === 'drift') {
    return (resource.driftIn ?? []).map((env) =>
      resource.untrackedIn?.includes(env) === true
        ? `${env}'s state does not track it: agentsync import -e ${env}, then agentsync plan -e ${env} and agentsync apply -e ${env}`
        : `bring ${env} back to the manifest: agentsync plan -e ${env}, then agentsync apply -e ${env}`,
    );
  }
  if (resource.group === 'only') {
    const env = resource.onlyIn ?? '';
    return [`to manage it: declare ${resource.address} in the manifest and run agentsync import -e ${env}; or delete it from ${env}`];
  }
  if (resource.group === 'differs') return [`to manage it: declare ${resource.address} in the manifest and run agentsync import in each environment`];
  return [];
}

/** A field side's value; `undefined` (absent) reads "(none)". */
export function valueText(value: JsonValue | undefined, maxLength = 60): string {
  if (value === undefined) return '(none)';
  if (value === SENSITIVE_PLACEHOLDER) return SENSITIVE_PLACEHOLDER;
  const text = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1)}…`;
}

/** Whether a side's server differs from its manifest at this field. */
export function sideDrifts(row: FieldRow, side: FieldSide): boolean {
  return row.driftIn?.includes(side.environment) === true;
}
