// `agentsync send`: one POST /messages. `agent:KEY` is resolved through the state, so scripts can
// address an agent by its manifest key instead of a server-generated uid.
import { responseTimeoutMs, type ManifestOptions } from './options.js';
import type { MessageBody, ReceiverType } from '../core/api-types.js';
import { UserError } from '../core/errors.js';
import { escapeControl } from '../core/terminal-safe.js';
import { isApiError } from '../io/api/api-error.js';
import { scrubOutside } from '../io/api/outside-text.js';
import { connectApi } from './api-connect.js';
import { loadManifestAndStore, type LoadedManifest } from './pipeline.js';
import { printWarnings } from './render-plan.js';
import type { CliIo } from './cli-io.js';
import { renderSentJson } from '../render/command-json.js';

export async function runSend(opts: SendOptions, io: CliIo): Promise<void> {
  const timeoutMs = responseTimeoutMs(opts.timeout);
  const loaded = await loadManifestAndStore(opts, io);
  printWarnings(io, loaded.warnings, opts);
  const receiver = await resolveReceiver(opts.to, loaded);
  const connection = connectApi(loaded.desired.environment, io.env, { concurrency: 1, retries: 5, timeoutMs });
  const body: MessageBody = { receiver: receiver.id, receiverType: receiver.type, category: 'message', type: 'text', data: { text: opts.text } };
  if (opts.tag.length > 0) body.tags = opts.tag;
  if (opts.quote !== undefined) body.quotedMessageId = opts.quote;
  if (opts.muid !== undefined) body.muid = opts.muid;
  const client = await connection.open();
  try {
    const message = await client.sendMessage(body, opts.onBehalfOf ? { onBehalfOf: opts.onBehalfOf } : {});
    // The id is the server's text: a secret it echoes is masked, and a control character is shown, not obeyed.
    const id = scrubOutside(message.id);
    io.stdout.write(opts.json ? renderSentJson({ id, muid: message.muid ?? body.muid ?? null, receiver: receiver.id, receiverType: receiver.type }) : `${escapeControl(id)}\n`);
  } catch (err) {
    if (isApiError(err)) throw new UserError('api_error', `sending the message failed: ${err.message}`, { status: err.status, apiCode: err.code });
    throw err;
  } finally {
    await client.close();
  }
}

async function resolveReceiver(to: string, loaded: LoadedManifest): Promise<{ type: ReceiverType; id: string }> {
  const colon = to.indexOf(':');
  const kind = colon > 0 ? to.slice(0, colon) : '';
  const id = to.slice(colon + 1);
  if (id === '' || !['user', 'group', 'agent'].includes(kind)) {
    throw new UserError('usage', `--to must be user:UID, group:GUID or agent:KEY (got "${to}")`);
  }
  if (kind !== 'agent') return { type: kind as ReceiverType, id };
  const state = await loaded.store.read(loaded.target);
  const record = state?.resources[`agent.${id}`];
  if (!record || record.type !== 'agent') {
    const known = Object.keys(state?.resources ?? {})
      .filter((a) => a.startsWith('agent.'))
      .map((a) => a.slice('agent.'.length));
    const hint = known.length > 0 ? `; known agents: ${known.join(', ')}` : '; apply the manifest first';
    throw new UserError('usage', `agent "${id}" is not in the state of environment "${loaded.target.environment}"${hint}`);
  }
  // An agent is a user of the chat app: its uid receives messages like any user's.
  return { type: 'user', id: record.remoteId };
}

export interface SendOptions extends ManifestOptions {
  to: string;
  text: string;
  onBehalfOf?: string;
  tag: string[];
  quote?: string;
  muid?: string;
}
