// Each command's flags as a typed request, checked before anything is read or sent, and tested here
// without running anything: parseApply (cli/apply-request.ts), parseKbStatus and parseKbSync
// (commands/kb.ts), parseDiff (commands/diff.ts), parsePlan (commands/plan.ts).
import { describe, expect, it } from 'vitest';
import { isUserError } from '../../src/core/errors.js';
import { parseApply } from '../../src/cli/apply-request.js';
import type { ApplyOptions } from '../../src/cli/apply-options.js';
import { parseKbStatus, parseKbSync } from '../../src/cli/commands/kb.js';
import { parseDiff } from '../../src/cli/commands/diff.js';
import { parsePlan } from '../../src/cli/commands/plan.js';

/** apply's flags as commander gives them with no flag typed. */
const DEFAULTS: ApplyOptions = { file: 'agents.yaml', concurrency: '10', retries: '5', timeout: '30', lockTimeout: '0', waitTimeout: '1800' };

function refusal(opts: Partial<ApplyOptions>, parse: (opts: ApplyOptions) => unknown = parseApply): string {
  try {
    parse({ ...DEFAULTS, ...opts });
  } catch (err) {
    if (isUserError(err)) return `${err.code}: ${err.message}`;
    throw err;
  }
  throw new Error('parseApply accepted it');
}

describe('parseApply', () => {
  it('turns the defaults into numbers, the human view, and the whole manifest in scope', () => {
    expect(parseApply(DEFAULTS)).toEqual({
      concurrency: 10,
      retries: 5,
      timeoutMs: 30_000,
      lockWaitMs: 0,
      waitTimeoutSeconds: undefined,
      view: 'human',
      autoApprove: false,
      allowMassDelete: false,
      scope: { prune: false, targets: [] },
    });
  });

  it('chooses the JSON view with --json, and keeps --wait, the approvals and the scope', () => {
    const request = parseApply({ ...DEFAULTS, json: true, wait: true, waitTimeout: '60', autoApprove: true, allowMassDelete: true, prune: true, target: ['agent.a', 'agent.a', 'tool.t'] });
    expect(request).toMatchObject({ view: 'json', waitTimeoutSeconds: 60, autoApprove: true, allowMassDelete: true, scope: { prune: true, targets: ['agent.a', 'tool.t'] } });
  });

  it('refuses a bad value with the flag it came from, the first bad one first', () => {
    expect(refusal({ concurrency: '0' })).toBe('usage: --concurrency must be a whole number from 1 to 256 (got "0")');
    expect(refusal({ retries: '101', concurrency: 'x' })).toBe('usage: --concurrency must be a whole number from 1 to 256 (got "x")');
    expect(refusal({ retries: '-1' })).toBe('usage: --retries must be a whole number from 0 to 100 (got "-1")');
    expect(refusal({ timeout: '05' })).toBe('usage: --timeout must be a whole number from 1 to 3600 (got "05")');
    expect(refusal({ lockTimeout: '86401' })).toBe('usage: --lock-timeout must be a whole number of seconds from 0 to 86400 (got "86401")');
    expect(refusal({ wait: true, waitTimeout: '0' })).toBe('usage: --wait-timeout must be a whole number from 1 to 86400 (got "0")');
    // Without --wait its timeout is not looked at.
    expect(parseApply({ ...DEFAULTS, waitTimeout: '0' }).waitTimeoutSeconds).toBeUndefined();
  });
});

describe('parseKbStatus and parseKbSync', () => {
  it('read --urls, --failed, --reindex, --wait and the view', () => {
    expect(parseKbStatus({ file: 'a.yaml', urls: true, json: true })).toEqual({ urls: true, timeoutMs: 30_000, view: 'json' });
    expect(parseKbSync({ file: 'a.yaml', failed: true, wait: true, waitTimeout: '90', timeout: '5' })).toEqual({
      failedOnly: true,
      reindex: false,
      wait: true,
      waitTimeoutSeconds: 90,
      timeoutMs: 5000,
      view: 'human',
    });
  });

  it('refuses --failed with --reindex before a bad number, and a bad --wait-timeout before a bad --timeout', () => {
    expect(refusal({ failed: true, reindex: true, timeout: 'x' } as Partial<ApplyOptions>, parseKbSync)).toMatch(/^usage: --failed and --reindex cannot be combined/);
    expect(refusal({ waitTimeout: '86401', timeout: 'x' }, parseKbSync)).toBe('usage: --wait-timeout must be a whole number from 1 to 86400 (got "86401")');
  });
});

describe('parseDiff', () => {
  it('chooses the view from --format or --json, and keeps the two environments', () => {
    expect(parseDiff({ file: 'a.yaml', env: ['us', 'eu'], format: 'markdown', liveOnly: true }, true)).toEqual({
      format: 'markdown',
      environments: ['us', 'eu'],
      timeoutMs: 30_000,
      liveOnly: true,
      detailedExitcode: false,
    });
    expect(parseDiff({ file: 'a.yaml', json: true, format: 'text', detailedExitcode: true }, false)).toMatchObject({ format: 'json', environments: [], detailedExitcode: true });
  });

  it('refuses --json with another --format, and an unknown format with a suggestion', () => {
    expect(() => parseDiff({ file: 'a.yaml', json: true, format: 'markdown' }, true)).toThrow('--json means --format json, so it cannot be combined with --format markdown; pass one of them');
    expect(() => parseDiff({ file: 'a.yaml', format: 'jsn' }, true)).toThrow(/^--format must be one of text, json, markdown \(got "jsn"\)/);
  });
});

describe('parsePlan', () => {
  it('reads --format, --out, --offline, the scope and --detailed-exitcode', () => {
    expect(parsePlan({ file: 'a.yaml', parallel: '4', format: 'markdown', out: 'plan.md', offline: true, prune: true, detailedExitcode: true }, true)).toEqual({
      format: 'markdown',
      out: { kind: 'rendering', path: 'plan.md' },
      offline: true,
      timeoutMs: 30_000,
      scope: { prune: true, targets: [] },
      detailedExitcode: true,
    });
    expect(parsePlan({ file: 'a.yaml', parallel: '4', json: true, out: 'plan.json' }, false)).toMatchObject({ format: 'json', out: { kind: 'saved-plan', path: 'plan.json' }, offline: false });
  });
});
