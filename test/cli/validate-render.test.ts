// The text and JSON renderings validate uses: code frame only when asked (a terminal), exact JSON keys.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { diagnosticsJson, renderDiagnosticsText } from '../../src/render/diagnostics.js';

const d: Diagnostic = { file: 'agents.yaml', line: 6, column: 5, path: 'tools.t.displayname', message: 'unknown key "displayname"', severity: 'error', lineText: '    displayname: T' };

describe('diagnostics rendering', () => {
  it('adds a code frame with a caret under the column', () => {
    expect(renderDiagnosticsText([d], { codeFrame: true, color: false })).toBe(
      'agents.yaml:6:5: error: unknown key "displayname" (at tools.t.displayname)\n6 |     displayname: T\n  |     ^\n1 error, 0 warnings\n',
    );
  });

  it('prints no frame and no colour when not asked', () => {
    expect(renderDiagnosticsText([d], { codeFrame: false, color: false })).toBe('agents.yaml:6:5: error: unknown key "displayname" (at tools.t.displayname)\n1 error, 0 warnings\n');
    expect(renderDiagnosticsText([d], { codeFrame: false, color: true })).toContain('\u001b[');
  });

  it('JSON has exactly valid and diagnostics, without lineText', () => {
    expect(diagnosticsJson([{ ...d, severity: 'warning' }])).toEqual({
      valid: true,
      diagnostics: [{ file: 'agents.yaml', line: 6, column: 5, path: 'tools.t.displayname', message: 'unknown key "displayname"', severity: 'warning' }],
    });
  });
});
