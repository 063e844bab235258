// The `notify` message sent after an apply that changed something. Its muid is derived from the
// state lineage, the serial the apply started from and the plan itself, so a retried or repeated
// send of the same apply carries the same muid.
import { createHash } from 'node:crypto';
import type { MessageBody } from '../../core/api-types.js';
import { canonicalJson } from '../../core/canonical.js';
import type { Desired } from '../../core/desired.js';
import type { Change, Plan } from '../../core/plan.js';
import type { NotifyConfig } from '../../core/schema.js';
import type { ApplyCounts, DoneItem, NotifyOutcome } from '../../core/apply-types.js';
import type { ApiClient } from '../api/client.js';
import { failureOf } from './apply-failure.js';

/** Text messages may be up to 65 KB and `data` up to 10 KB; stay well inside both. */
const MAX_TEXT_CHARS = 4000;
const SIGN: Record<DoneItem['action'], string> = { create: '+', update: '~', delete: '-', forget: '-' };

export function notifyMuid(lineage: string, startSerial: number, planFingerprint: string): string {
  const digest = createHash('sha256').update(`${lineage}\n${startSerial}\n${planFingerprint}`).digest('hex');
  return `agentsync-${digest.slice(0, 32)}`;
}

export function notifyText(environment: string, counts: ApplyCounts, done: readonly DoneItem[]): string {
  const replaced = (counts.replaced ?? 0) > 0 ? ` ${counts.replaced} replaced,` : '';
  const deleted = counts.deleted > 0 ? ` ${counts.deleted} deleted,` : '';
  const adopted = (counts.adopted ?? 0) > 0 ? `, ${counts.adopted} adopted` : '';
  const head = `agentsync applied to ${environment}: ${counts.created} created, ${counts.updated} updated,${replaced}${deleted} ${counts.forgotten} forgotten${adopted}.`;
  const lines = [head];
  let length = head.length;
  const sorted = [...done].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  for (let i = 0; i < sorted.length; i++) {
    const item = sorted[i] as DoneItem;
    const line = `${SIGN[item.action]} ${item.address}`;
    // Leave room for the "and N more" line.
    if (length + line.length + 1 > MAX_TEXT_CHARS - 40) {
      lines.push(`… and ${sorted.length - i} more`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

export function notifyBody(config: NotifyConfig, text: string, muid: string): MessageBody {
  return { receiver: config.receiver, receiverType: config.receiverType, category: 'message', type: 'text', muid, data: { text } };
}

interface NotifyInput {
  plan: Plan;
  desired: Desired;
  client: ApiClient;
}

interface NotifyContext {
  ok: boolean;
  interrupted: boolean;
  counts: ApplyCounts;
  done: readonly DoneItem[];
  lineage: string;
  /** The state's serial when the apply began. */
  serial: number;
}

/** Sent only after a complete apply that changed something; a failure here undoes nothing. */
export async function sendNotify(input: NotifyInput, ctx: NotifyContext): Promise<NotifyOutcome> {
  const config = input.desired.notify;
  if (!config) return { status: 'skipped', reason: 'not-configured' };
  if (ctx.interrupted) return { status: 'skipped', reason: 'interrupted' };
  if (!ctx.ok) return { status: 'skipped', reason: 'apply-failed' };
  if (ctx.done.length === 0) return { status: 'skipped', reason: 'nothing-changed' };
  const muid = notifyMuid(ctx.lineage, ctx.serial, planFingerprint(input.plan.changes));
  const body = notifyBody(config, notifyText(input.plan.environment, ctx.counts, ctx.done), muid);
  try {
    const message = await input.client.sendMessage(body, config.onBehalfOf ? { onBehalfOf: config.onBehalfOf } : {});
    return { status: 'sent', messageId: message.id, muid };
  } catch (err) {
    return { status: 'failed', muid, failure: failureOf(err, 'POST /messages') };
  }
}

function planFingerprint(changes: readonly Change[]): string {
  return canonicalJson(changes.filter((c) => c.action !== 'no-op').map((c) => [c.action, c.address, 'after' in c ? c.after : null]));
}
