// An `http://` URL sends what goes to it (headers, tokens, user messages) in clear. Loopback
// addresses are exempt: the local emulator and test servers are reached that way.
import type { DocLintInput, RuleHit } from './types.js';
import { offsetInside, stringScalars } from './yaml-walk.js';

const HTTP_URL = /http:\/\/([^\s/?#"'<>]*)/gi;
const LOOPBACK = /^(?:[^@]*@)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

export function insecureUrls({ doc, locator }: DocLintInput): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const scalar of stringScalars(doc)) {
    for (const match of scalar.value.matchAll(HTTP_URL)) {
      const host = match[1] ?? '';
      if (LOOPBACK.test(host) || host.includes('${')) continue;
      hits.push({
        path: scalar.path,
        offset: offsetInside(scalar.node, locator, scalar.value, match.index, match[0].slice(0, 7)),
        message: `http:// URL${host === '' ? '' : ` to ${host.replace(/^[^@]*@/, '')}`}: anything sent there travels unencrypted; use https://`,
      });
    }
  }
  return hits;
}
