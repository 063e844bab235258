#!/usr/bin/env node
// Creates, or updates in place, the one pull-request comment that shows agentsync's plan for a
// manifest (or, with `--kind diff`, its diff of two environments, on the pull request or on the
// issue `--issue` names: a nightly job's). The comment is found again by a hidden marker naming the manifest path and the
// environments, so every manifest (and every set of environments) keeps its own comment and a
// new push edits it instead of adding another. Used by action.yml; plain Node, no dependencies.
//
//   node pr-comment.mjs --manifest PATH [--environments us,eu] --plan-file plan.md
//                       [--exitcode N] [--error-file stderr.txt] [--kind plan|diff] [--issue N]
//
// Reads GITHUB_API_URL, GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_NAME and GITHUB_EVENT_PATH
// as a runner sets them. Prints one line; on failure one line on stderr and exit 1. The token is
// sent only in the Authorization header and never printed.
/* global fetch, AbortSignal, console -- Node 20's own globals; the lint setup knows only the ES ones */
import { readFileSync, appendFileSync } from 'node:fs';
import process from 'node:process';
import { pathToFileURL, URL } from 'node:url';
import { parseArgs } from 'node:util';

/** GitHub refuses comment bodies over 65,536 characters. */
const MAX_BODY = 65_000;
/** 100 pages of 100 comments: far beyond any real pull request, and a bound on a broken `next` link. */
const MAX_PAGES = 100;

class CommentError extends Error {}

/** The hidden line a comment is found by. Values are percent-encoded so `--` and `"` cannot end it early. */
export function markerFor(manifest, environments, kind = 'plan') {
  const safe = (text) => text.replace(/[%"<>\-\s]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
  return `<!-- agentsync-${kind === 'diff' ? 'diff' : 'plan'} file="${safe(manifest)}" environments="${safe(environments.join(','))}" -->`;
}

/** `us, eu`, `us eu` or one per line → a sorted, duplicate-free list, so the order never makes a second comment. */
export function parseEnvironments(text) {
  return [...new Set((text ?? '').split(/[\s,]+/).filter(Boolean))].sort();
}

export function commentBody({ marker, manifest, environments, plan, exitcode, error, sha, kind = 'plan' }) {
  const what = kind === 'diff' ? 'diff' : 'plan';
  const where = `\`${manifest}\`` + (environments.length > 0 ? ` (${environments.join(', ')})` : '');
  const lines = [marker];
  if (exitcode === 1) {
    lines.push(`### agentsync ${what} failed for ${where}`, '', '```text', (error ?? '').trim().slice(0, 20_000) || '(no error output)', '```');
  } else {
    lines.push(plan.trim() || `agentsync printed no ${what} for ${where}.`);
  }
  const when = kind === 'diff' ? 'on every run' : 'on every push';
  lines.push('', `<sub>agentsync ${what} for ${where}${sha ? ` at ${sha.slice(0, 7)}` : ''}; this comment is updated in place ${when}.</sub>`);
  const body = lines.join('\n');
  return body.length <= MAX_BODY ? body : body.slice(0, MAX_BODY - 80) + '\n\n_… cut to fit a GitHub comment; see the job summary._';
}

function createApi({ apiUrl, token }) {
  const base = apiUrl.replace(/\/+$/, '');
  return async function call(method, pathOrUrl, what, body) {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : base + pathOrUrl;
    let res;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'agentsync-action',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      const cause = err?.cause?.code ?? err?.cause?.message ?? err?.message ?? 'network error';
      throw new CommentError(`could not ${what}: no answer from ${new URL(url).host} (${cause})`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text.slice(0, 200);
      try {
        message = JSON.parse(text).message ?? message;
      } catch {
        // Not JSON: keep the start of the text.
      }
      throw new CommentError(`could not ${what}: GitHub answered ${res.status} ${oneLine(message)} (${method} ${new URL(url).pathname})`);
    }
    return { json: text === '' ? null : JSON.parse(text), link: res.headers.get('link') };
  };
}

function oneLine(text) {
  return (
    String(text)
      // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, 300)
  );
}

/** The `rel="next"` URL of a Link header, if any. */
export function nextLink(header) {
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return null;
}

async function findComment(call, repo, number, marker) {
  let url = `/repos/${repo}/issues/${number}/comments?per_page=100`;
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const { json, link } = await call('GET', url, 'list the pull request comments');
    const found = (Array.isArray(json) ? json : []).find((c) => typeof c?.body === 'string' && c.body.includes(marker));
    if (found) return found;
    url = nextLink(link);
  }
  return null;
}

function readEvent(path) {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CommentError(`could not read the event payload ${path}: ${err.message}`);
  }
}

async function main(argv, env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      manifest: { type: 'string' },
      environments: { type: 'string', default: '' },
      'plan-file': { type: 'string' },
      'error-file': { type: 'string' },
      exitcode: { type: 'string', default: '0' },
      kind: { type: 'string', default: 'plan' },
      issue: { type: 'string' },
    },
  });
  if (!values.manifest || !values['plan-file']) throw new CommentError('usage: pr-comment.mjs --manifest PATH --plan-file FILE [--environments LIST] [--exitcode N] [--error-file FILE]');
  if (values.kind !== 'plan' && values.kind !== 'diff') throw new CommentError(`--kind must be plan or diff (got "${values.kind}")`);
  if (values.issue !== undefined && !/^[1-9][0-9]*$/.test(values.issue)) throw new CommentError(`--issue must be an issue number (got "${values.issue}")`);
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const pr = values.issue === undefined ? event.pull_request : undefined;
  const number = values.issue === undefined ? (pr?.number ?? event.number) : Number(values.issue);
  if (!Number.isInteger(number)) return 'not a pull request: no comment written';
  const headRepo = pr?.head?.repo?.full_name;
  const baseRepo = pr?.base?.repo?.full_name ?? env.GITHUB_REPOSITORY;
  // A pull_request run from a fork gets a read-only token; pull_request_target runs get a writable one.
  if (env.GITHUB_EVENT_NAME === 'pull_request' && headRepo && baseRepo && headRepo !== baseRepo) {
    return `the pull request comes from the fork ${headRepo}, whose token cannot comment: the plan is in the job summary only`;
  }
  const token = env.GITHUB_TOKEN;
  if (!token) throw new CommentError('GITHUB_TOKEN is not set: pass github-token (the default is the workflow token), or set comment: false');
  const repo = env.GITHUB_REPOSITORY ?? baseRepo;
  if (!repo || !/^[^/\s]+\/[^/\s]+$/.test(repo)) throw new CommentError('GITHUB_REPOSITORY is not set to owner/name');

  const environments = parseEnvironments(values.environments);
  const marker = markerFor(values.manifest, environments, values.kind);
  const what = values.kind;
  const readText = (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new CommentError(`could not read ${file}: ${err.code ?? err.message}`);
    }
  };
  const body = commentBody({
    marker,
    manifest: values.manifest,
    environments,
    plan: readText(values['plan-file']),
    exitcode: Number(values.exitcode),
    error: values['error-file'] ? readText(values['error-file']) : '',
    sha: pr?.head?.sha,
    kind: values.kind,
  });
  const call = createApi({ apiUrl: env.GITHUB_API_URL || 'https://api.github.com', token });
  const existing = await findComment(call, repo, number, marker);
  const { json } = existing
    ? await call('PATCH', `/repos/${repo}/issues/comments/${existing.id}`, `update the ${what} comment`, { body })
    : await call('POST', `/repos/${repo}/issues/${number}/comments`, `create the ${what} comment`, { body });
  const url = json?.html_url ?? '';
  if (env.GITHUB_OUTPUT && url) appendFileSync(env.GITHUB_OUTPUT, `comment-url=${url}\n`);
  return `${existing ? 'updated' : 'created'} the ${what} comment${url ? ` ${url}` : ''}`;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  try {
    console.log(`agentsync: ${await main(process.argv.slice(2), process.env)}`);
  } catch (err) {
    // Usage, I/O and API failures alike: one line, never a stack (nor anything but the message).
    console.error(`agentsync: ${oneLine(err instanceof Error ? err.message : err)}`);
    process.exitCode = 1;
  }
}
