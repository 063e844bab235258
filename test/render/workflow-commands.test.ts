// Untrusted text (a manifest's instruction or key, a plan file's names, a server's status) must
// never reach a terminal or a CI log as a control sequence or as a GitHub workflow command. The
// Actions runner trims a line's leading whitespace and then obeys `::name …::`, so every line we
// print is checked after trimming, in every renderer.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { formatDiagnosticLine } from '../../src/core/diagnostics.js';
import { planFromJson } from '../../src/core/plan-from-json.js';
import { escapeControl, escapeControlKeepLines, oneSafeLine } from '../../src/core/terminal-safe.js';
import { renderGithubAnnotations } from '../../src/render/annotations.js';
import { renderDiagnosticsText } from '../../src/render/diagnostics.js';
import { renderGraphDot } from '../../src/render/graph.js';
import { renderKbStatusText } from '../../src/render/kb-status.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { planToJson } from '../../src/render/plan-json.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { savedPlanHeader } from '../../src/render/saved-plan.js';
import { baseBody, desiredOf, digest, stateOf, supportAgent } from '../core/diff-fixtures.js';

/** A line the runner would obey: `::` after the leading whitespace it trims. */
const COMMAND_LINE = /^[\s\u0085]*::/m;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function expectInert(text: string): void {
  expect(text).not.toMatch(COMMAND_LINE);
  expect(text).not.toMatch(CONTROL);
}

const HOSTILE_LINES = ['::error file=app.js,line=1::pwned', '  ::add-mask::sk-live-123', '\u00a0::stop-commands::tok', '::warning::x'];
const instruction = (last: string) => ['You help customers.', ...HOSTILE_LINES, 'Be brief.', last].join('\n');

function updatePlan() {
  const before = desiredOf({ ...baseBody, agents: { support: { ...supportAgent, instruction: instruction('Never guess.') } } });
  const after = desiredOf({ ...baseBody, agents: { support: { ...supportAgent, instruction: instruction('Always guess.') } } });
  return planChanges({ desired: after, state: stateOf(before), digest });
}

describe('the safe-text functions', () => {
  it.each([
    ['::error::x', '\\u003a:error::x'],
    ['   ::add-mask::s', '   \\u003a:add-mask::s'],
    ['\u3000::warning::x', '\u3000\\u003a:warning::x'],
    ['a ::b', 'a ::b'],
    [':single', ':single'],
  ])('escapeControl(%j) is %j', (input, shown) => expect(escapeControl(input)).toBe(shown));

  it('defuses every line of a multi-line text, and oneSafeLine the one line it makes', () => {
    expect(escapeControlKeepLines('ok\n  ::error::x\n::y')).toBe('ok\n  \\u003a:error::x\n\\u003a:y');
    expect(oneSafeLine('\n\n  ::error::x')).toBe('\\u003a:error::x');
  });
});

describe('line diffs of an instruction', () => {
  it('in the text plan, unchanged context lines never become commands', () => {
    const text = renderPlanText(updatePlan(), { color: false });
    expect(text).toContain('Always guess.');
    expectInert(text);
  });

  it('in the markdown plan too', () => {
    const markdown = renderPlanMarkdown(updatePlan());
    expect(markdown).toContain('Always guess.');
    expectInert(markdown);
  });

  it('a create that lists every line', () => {
    const desired = desiredOf({ ...baseBody, agents: { support: { ...supportAgent, instruction: instruction('x') } } });
    const plan = planChanges({ desired, state: null, digest });
    expectInert(renderPlanText(plan, { color: false }));
    expectInert(renderPlanMarkdown(plan));
  });
});

describe('a forged plan file shown by `show`', () => {
  const hostile = 'prod\n::error::forged\u001b[2J\r';
  const json = {
    ...planToJson(updatePlan()),
    environment: hostile,
    appId: `app\n::add-mask::x\u001b]0;title\u0007`,
    moves: [{ from: 'agent.a\n::warning::m', to: 'agent.b\u001b[31m', type: 'agent', remoteId: 'r\n::x::' }],
  } as unknown as Record<string, unknown>;
  (json.changes as Record<string, unknown>[]).push({ address: 'agent.evil\n::error::addr\u001b[1m', type: 'agent', action: 'delete', remoteId: 'u\r\n::warning::id', fields: [], before: {} });
  const plan = planFromJson(json, 'plan.json');

  it('prints its environment, app id, addresses, remote ids and moves as inert text', () => {
    expectInert(renderPlanText(plan, { color: false }));
    expectInert(renderPlanText(plan, { color: true }).replace(new RegExp(`${'\u001b'}\\[\\d+m`, 'g'), ''));
    expectInert(renderPlanMarkdown(plan));
  });

  it('with nothing to do, the no-changes line too', () => {
    const quiet = planFromJson({ ...json, changes: [], moves: [], summary: { create: 0, update: 0, replace: 0, delete: 0, forget: 0, noop: 0 } }, 'plan.json');
    expect(renderPlanText(quiet, { color: false })).toMatch(/^No changes\. Environment "prod/);
    expectInert(renderPlanText(quiet, { color: false }));
  });

  it('the header names the file as inert text', () => {
    expectInert(savedPlanHeader({ path: 'p\n::error::x.json', createdAt: '2025\n::warning::t', agentsyncVersion: '1\u001b[2J' }));
  });
});

describe('diagnostics quoting manifest keys', () => {
  const diagnostic: Diagnostic = {
    file: 'agents.yaml',
    line: 3,
    column: 5,
    path: 'agents["x\\n::warning::k"]',
    message: 'unknown key "bad\n::stop-commands::tok\r\u001b[2J" (did you mean "tools"?)',
    severity: 'error',
    lineText: '  "bad\u001b[2J": 1',
  };

  it('one line each, controls shown, never a command', () => {
    expect(formatDiagnosticLine(diagnostic).split('\n')).toHaveLength(1);
    expectInert(formatDiagnosticLine(diagnostic));
    expectInert(renderDiagnosticsText([diagnostic], { codeFrame: true, color: false }));
  });

  it('GitHub annotations: one command per diagnostic, its message without control characters', () => {
    const lines = renderGithubAnnotations([diagnostic], 'validate').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error file=agents\.yaml,line=3,col=5,title=agentsync validate::/);
    const message = (lines[0] ?? '').replace(/^::[^:]*::/, '');
    expect(message).not.toMatch(CONTROL);
    expect(message).not.toMatch(/%0A|%0D/);
  });
});

describe('kb status from a hostile server', () => {
  it('prints status names and count keys inert', () => {
    const text = renderKbStatusText(
      [
        {
          address: 'website.docs',
          websiteId: 'w1',
          found: true,
          total: 1,
          counts: { 'done\n::error::count\u001b[2J': 1 },
          urls: [{ url: 'https://x/\n::warning::u', id: 'u1', status: 'ok\r\n::add-mask::s\u001b]0;t\u0007' }],
        },
      ],
      false,
    );
    expectInert(text);
  });
});

describe('graph', () => {
  it('DOT labels hold no C1 control either', () => {
    const dot = renderGraphDot({ nodes: [{ id: 'agent.a', kind: 'agent', detail: 'x\u009b31m\u0085y' }], edges: [] });
    expectInert(dot);
  });
});
