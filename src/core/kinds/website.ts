// Knowledge-base websites: the only call is "process the discovered URLs, except these", which is
// both create and update. There is no endpoint to read one back, so websites are never refreshed,
// and re-sending the call is harmless, so an interrupted one is simply sent again.
import type { WebsiteSpec } from '../desired.js';
import { ADDRESS_KEY_PATTERN } from '../schema.js';
import { answeredStatus, isObject, seg, stringField, UnexpectedAnswer, type CallContext, type CallOutcome, type Kind } from './kind.js';
import type { FieldTable } from './fields.js';

/** The website's field facts (CONTRACT §10.2). Websites cannot be read back, so nothing is "returned". */
const WEBSITE_FIELDS: FieldTable<WebsiteSpec> = {
  parentUniqueId: { returned: 'always' },
  exclude: { default: () => [], set: true, returned: 'always' },
};

export const websiteKind: Kind<WebsiteSpec> = {
  type: 'website',
  remoteIdLabel: 'batchId',
  keyPattern: ADDRESS_KEY_PATTERN,
  createIsRepeatable: true,
  dependsOn: [],
  fields: WEBSITE_FIELDS,
  // The batch id of an earlier processing cannot be read back; the next change processes again.
  importedRemoteId: '(imported)',
  create: (ctx, spec) => processUrls(ctx, spec),
  update: (ctx, spec) => processUrls(ctx, spec),
  describe: (_action, spec) => processPath(spec),
};

function processPath(spec: WebsiteSpec): string {
  return `POST /ai-agents/agent-builder/knowledge-base/website/${seg(spec.parentUniqueId)}/discovered-urls/process`;
}

async function processUrls(ctx: CallContext, spec: WebsiteSpec): Promise<CallOutcome> {
  const path = processPath(spec).slice('POST '.length);
  let answer: unknown;
  try {
    answer = await ctx.wire.send({ method: 'POST', path, body: { exclude: [...spec.exclude] } });
  } catch (err) {
    // The public reference answers 404 when no discovered URL is left to process; say so plainly.
    if (answeredStatus(err, 404)) throw new NothingToProcess(err);
    throw err;
  }
  const data = isObject(answer) && isObject(answer.data) ? answer.data : undefined;
  const batchId = data ? stringField(data, 'batchId') : undefined;
  if (batchId === undefined) throw new UnexpectedAnswer(`POST ${path} answered without a "batchId"`);
  return { remoteId: batchId };
}

/** The 404 of the process call, with what it means; keeps the status so nothing retries it. */
export class NothingToProcess extends Error {
  readonly status = 404;
  readonly code = 'NOTHING_TO_PROCESS';
  constructor(cause: unknown) {
    super('the server has no discovered URL left to process for this website (every one is excluded, or the website does not exist)', { cause });
  }
}
