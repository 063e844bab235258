import { describe, expect, it } from 'vitest';
import { colorEnabled, palette } from '../../src/render/color.js';

describe('colorEnabled', () => {
  it.each([
    [{ isTTY: true, noColorFlag: false, env: {} }, true],
    [{ isTTY: false, noColorFlag: false, env: {} }, false],
    [{ isTTY: true, noColorFlag: true, env: {} }, false],
    [{ isTTY: true, noColorFlag: false, env: { NO_COLOR: '1' } }, false],
    [{ isTTY: true, noColorFlag: false, env: { NO_COLOR: '' } }, true],
    [{ isTTY: false, noColorFlag: false, env: { FORCE_COLOR: '1' } }, true],
    [{ isTTY: false, noColorFlag: false, env: { FORCE_COLOR: '' } }, true],
    [{ isTTY: true, noColorFlag: false, env: { FORCE_COLOR: '0' } }, false],
    [{ isTTY: false, noColorFlag: false, env: { FORCE_COLOR: '1', NO_COLOR: '1' } }, false],
    [{ isTTY: false, noColorFlag: true, env: { FORCE_COLOR: '1' } }, false],
  ])('%j → %s', (input, expected) => {
    expect(colorEnabled(input)).toBe(expected);
  });

  it('palette(false) returns text unchanged; palette(true) wraps and resets', () => {
    expect(palette(false).red('x')).toBe('x');
    expect(palette(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(palette(true).bold('')).toBe('');
  });
});
