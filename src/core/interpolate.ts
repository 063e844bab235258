// Interpolation of manifest strings: ${NAME}, ${NAME:-default}, ${var.NAME}, ${secret:NAME}, and
// $${ for a literal "${". Pure: the environment variables arrive as an explicit object.
import type { JsonValue } from './api-types.js';

export type TokenKind = 'env' | 'var' | 'secret' | 'invalid';

export interface Token {
  kind: TokenKind;
  /** Variable name (env, var, secret) or the raw text (invalid). */
  name: string;
  /** Only for ${NAME:-default}. */
  fallback?: string;
  /** Offset of the "${" in the string. */
  start: number;
  /** Ordinal of this "${" among the string's openings; used to find it again in the YAML source. */
  ordinal: number;
}

const ENV_NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;
const VAR_NAME = /^var\.([A-Za-z_][A-Za-z0-9_-]*)$/;
const SECRET_NAME = /^secret:([A-Za-z_][A-Za-z0-9_]*)$/;

export function hasInterpolation(s: string): boolean {
  return s.includes('${');
}

/** Splits a string into literal text and tokens. `$${` becomes the literal text "${". */
export function scanTemplate(s: string): (string | Token)[] {
  const pieces: (string | Token)[] = [];
  let text = '';
  let ordinal = 0;
  let i = 0;
  while (i < s.length) {
    const dollar = s.indexOf('$', i);
    if (dollar < 0) {
      text += s.slice(i);
      break;
    }
    text += s.slice(i, dollar);
    if (s.startsWith('$${', dollar)) {
      text += '${';
      i = dollar + 3;
      continue;
    }
    if (s[dollar + 1] !== '{') {
      text += '$';
      i = dollar + 1;
      continue;
    }
    if (text !== '') pieces.push(text);
    text = '';
    const close = s.indexOf('}', dollar + 2);
    if (close < 0) {
      pieces.push({ kind: 'invalid', name: s.slice(dollar), start: dollar, ordinal });
      break;
    }
    pieces.push(classify(s.slice(dollar + 2, close), dollar, ordinal++));
    i = close + 1;
  }
  if (text !== '') pieces.push(text);
  return pieces;
}

function classify(inner: string, start: number, ordinal: number): Token {
  const secret = SECRET_NAME.exec(inner);
  if (secret) return { kind: 'secret', name: secret[1] ?? '', start, ordinal };
  const variable = VAR_NAME.exec(inner);
  if (variable) return { kind: 'var', name: variable[1] ?? '', start, ordinal };
  const env = ENV_NAME.exec(inner);
  if (env) {
    const token: Token = { kind: 'env', name: env[1] ?? '', start, ordinal };
    if (env[2] !== undefined) token.fallback = env[2];
    return token;
  }
  return { kind: 'invalid', name: '${' + inner + '}', start, ordinal };
}

/** Offsets of every "${" opening (not "$${"), in the same order as the tokens of scanTemplate. */
export function openingOffsets(s: string): number[] {
  const offsets: number[] = [];
  for (const piece of scanTemplate(s)) if (typeof piece !== 'string') offsets.push(piece.start);
  return offsets;
}

export type ProblemKind = 'syntax' | 'unset' | 'unset-secret' | 'unknown-var' | 'not-allowed' | 'api-key' | 'whole-var-only';

/** A `vars` value: scalars become text; a list or map can only be taken whole (see interpolateValue). */
export type VarValue = string | number | boolean | JsonValue[] | { [key: string]: JsonValue };

export interface InterpolationProblem {
  kind: ProblemKind;
  message: string;
  token: Token;
}

export interface InterpolationContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The selected environment's vars; undefined where ${var.…} may not be used. */
  vars: Readonly<Record<string, VarValue>> | undefined;
  /** The environment the vars belong to, for messages. */
  environmentName?: string;
  /** False where ${secret:…} may not be used (outside resources). */
  secretsAllowed: boolean;
  /**
   * Variables that hold an API key (every apiKeyEnv, and COMETCHAT_API_KEY). Interpolating one,
   * in any form, would send, print and store the key, so it is an error.
   */
  apiKeyVariables?: ReadonlySet<string>;
}

export interface Interpolated {
  value: string;
  /** True when any part came from ${secret:…}. */
  sensitive: boolean;
  /** The values that ${secret:…} tokens gave, so that output can hide them wherever they turn up. */
  secrets: string[];
  problems: InterpolationProblem[];
}

/** Resolves every token. A token that cannot be resolved contributes '' and a problem. */
export function interpolate(s: string, ctx: InterpolationContext): Interpolated {
  let value = '';
  let sensitive = false;
  const secrets: string[] = [];
  const problems: InterpolationProblem[] = [];
  for (const piece of scanTemplate(s)) {
    if (typeof piece === 'string') {
      value += piece;
      continue;
    }
    const resolved = resolveToken(piece, ctx);
    if (typeof resolved === 'string') value += resolved;
    else problems.push(resolved);
    if (piece.kind === 'secret') {
      sensitive = true;
      if (typeof resolved === 'string') secrets.push(resolved);
    }
  }
  return { value, sensitive, secrets, problems };
}

export interface InterpolatedValue extends Omit<Interpolated, 'value'> {
  value: string | JsonValue[] | { [key: string]: JsonValue };
}

/**
 * Like interpolate, except that a string that is exactly `${var.NAME}` naming a list or map var
 * takes that value whole (docs/spec/manifest.md#interpolation: `tools: ${var.shared_tools}`).
 * Scalars stay text, as they always were, so `${var.version}` with `version: 2` is still "2".
 */
export function interpolateValue(s: string, ctx: InterpolationContext): InterpolatedValue {
  const pieces = scanTemplate(s);
  const only = pieces.length === 1 ? pieces[0] : undefined;
  if (typeof only === 'object' && only.kind === 'var' && ctx.vars !== undefined && Object.hasOwn(ctx.vars, only.name)) {
    const value = ctx.vars[only.name];
    // A copy: one var may fill several places, and nothing downstream should see the others change.
    if (typeof value === 'object' && value !== null) return { value: structuredClone(value), sensitive: false, secrets: [], problems: [] };
  }
  return interpolate(s, ctx);
}

function resolveToken(token: Token, ctx: InterpolationContext): string | InterpolationProblem {
  const kind = token.kind;
  if ((kind === 'env' || kind === 'secret') && ctx.apiKeyVariables?.has(token.name) === true) {
    return problem(
      'api-key',
      token,
      `${token.name} holds the API key (it is an apiKeyEnv, or the default COMETCHAT_API_KEY); the key may not be interpolated into the manifest, where it would be sent, printed and stored`,
    );
  }
  switch (kind) {
    case 'env': {
      const set = Object.hasOwn(ctx.env, token.name) ? ctx.env[token.name] : undefined;
      if (token.fallback !== undefined) return set === undefined || set === '' ? token.fallback : set;
      if (set !== undefined) return set;
      return problem('unset', token, `environment variable ${token.name} is not set (write \${${token.name}:-default} to give it a default)`);
    }
    case 'var': {
      if (ctx.vars === undefined) return problem('not-allowed', token, `\${var.${token.name}} cannot be used inside environments`);
      if (Object.hasOwn(ctx.vars, token.name)) {
        const value = ctx.vars[token.name];
        if (typeof value !== 'object' || value === null) return String(value);
        const what = Array.isArray(value) ? 'a list' : 'a map';
        return problem('whole-var-only', token, `vars.${token.name} is ${what}, so \${var.${token.name}} must be the whole value (exactly "\${var.${token.name}}"), not part of a longer string`);
      }
      const owner = ctx.environmentName === undefined ? 'the environment' : `environment "${ctx.environmentName}"`;
      return problem('unknown-var', token, `unknown variable \${var.${token.name}}: ${owner} has no vars.${token.name}`);
    }
    case 'secret': {
      if (!ctx.secretsAllowed) {
        return problem('not-allowed', token, `\${secret:${token.name}} can only be used inside tools, agents and knowledgeBase`);
      }
      const set = Object.hasOwn(ctx.env, token.name) ? ctx.env[token.name] : undefined;
      if (set !== undefined) return set;
      return problem('unset-secret', token, `secret ${token.name} is not set (the environment variable ${token.name} holds it)`);
    }
    case 'invalid':
      return problem('syntax', token, `invalid interpolation ${token.name}: use \${NAME}, \${NAME:-default}, \${var.NAME} or \${secret:NAME}, and $\${ for a literal \${`);
    default: {
      const _exhaustive: never = kind;
      return _exhaustive;
    }
  }
}

function problem(kind: ProblemKind, token: Token, message: string): InterpolationProblem {
  return { kind, token, message };
}
