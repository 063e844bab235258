// A credential typed into the manifest is committed to git and printed in plans; `${secret:NAME}`
// reads it from the environment instead. Two signs: a value shaped like a well-known token, or a
// literal under a key that names a credential. The finding never repeats the value or its line.
import type { DocLintInput, RuleHit } from './types.js';
import { offsetInside, stringScalars } from './yaml-walk.js';

/** Token shapes that are credentials wherever they appear. */
const TOKEN_SHAPES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'an OpenAI-style API key', pattern: /\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}/ },
  { name: 'a Stripe key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/ },
  { name: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { name: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { name: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { name: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { name: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { name: 'a bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/ },
  { name: 'a URL with a password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:[^\s@/]+@/i },
];

/** Keys whose value is a credential (`apiKey`, `x-api-key`, `Authorization`, `client_secret`, …). */
const CREDENTIAL_KEY = /(?:^|[_-])(?:api[_-]?key|access[_-]?key|token|secret|password|passwd|authorization)$|^(?:apiKey|accessKey|accessToken|authToken|clientSecret|password|secret|token)$/i;
const MIN_KEYED_LENGTH = 8;

/** Any `${…}` reference: what it stands for is not in the file. */
const REFERENCE = /\$\{[^}]*\}/g;

export function secretLiterals({ doc, locator }: DocLintInput): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const scalar of stringScalars(doc)) {
    if (scalar.path[0] === 'lint') continue;
    // References are blanked, not removed, so indexes still match the value.
    const literal = scalar.value.replace(REFERENCE, (ref) => ' '.repeat(ref.length));
    const shape = TOKEN_SHAPES.map(({ name, pattern }) => ({ name, match: pattern.exec(literal) })).find((s) => s.match !== null);
    if (shape?.match) {
      const found = shape.match[0];
      hits.push({
        path: scalar.path,
        offset: offsetInside(scalar.node, locator, scalar.value, shape.match.index, found.slice(0, 6)),
        hideLine: true,
        message: `this value looks like ${shape.name} written into the manifest; move it to an environment variable and write \${secret:NAME} here`,
      });
      continue;
    }
    const key = scalar.key;
    if (key !== undefined && CREDENTIAL_KEY.test(key) && literal.trim().length >= MIN_KEYED_LENGTH && !/\s/.test(literal.trim())) {
      hits.push({
        path: scalar.path,
        hideLine: true,
        message: `${key} holds a literal value; a credential belongs in an environment variable, read with \${secret:NAME}`,
      });
    }
  }
  return hits;
}
