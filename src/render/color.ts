// Whether to color, and the few ANSI styles the renderers use. No dependency: four escape codes.

export interface ColorInput {
  isTTY: boolean;
  /** `--no-color` was given. */
  noColorFlag: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * `--no-color` and a non-empty NO_COLOR always win. Otherwise FORCE_COLOR turns color on (or off
 * with `0`/`false`) even when piped, and without it color is on only for a TTY.
 */
export function colorEnabled({ isTTY, noColorFlag, env }: ColorInput): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY;
}

export type Paint = (text: string) => string;

export interface Palette {
  green: Paint;
  yellow: Paint;
  red: Paint;
  cyan: Paint;
  bold: Paint;
  dim: Paint;
}

const identity: Paint = (text) => text;

function style(open: number, close: number): Paint {
  return (text) => (text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`);
}

/** The styles, or identity functions when color is off (so callers never branch on it). */
export function palette(enabled: boolean): Palette {
  if (!enabled) return { green: identity, yellow: identity, red: identity, cyan: identity, bold: identity, dim: identity };
  return { green: style(32, 39), yellow: style(33, 39), red: style(31, 39), cyan: style(36, 39), bold: style(1, 22), dim: style(2, 22) };
}
