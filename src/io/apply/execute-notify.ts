// The `notify` message sent after an apply that changed something. Its muid is derived from the
// state lineage, the serial the apply started from and the plan itself, so a retried or repeated
// send of the same apply carries the same muid.
import { createHash } from 'node:crypto';
import type { MessageBody } from '../../core/api-types.js';
import type { NotifyConfig } from '../../core/schema.js';
import type { ApplyCounts, DoneItem } from '../../core/apply-types.js';

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
