// One URI, one spelling (RFC 3986 §6.2.2 and §6.2.3), so that a URL spelled differently cannot
// escape an exclude glob written for it: `/%62log/secret` is `/blog/secret`, `HTTPS://D.COM:443/x`
// is `https://d.com/x`, `/docs/../blog/x` is `/blog/x`. Both sides of a match are normalised: the
// URL whole (normalizeUrl), the glob's literal text (normalizeGlobText), so wildcards never move.
// Linear in the text; a URL that needs nothing comes back as the same string.

/** ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986 §2.3): never needs encoding, so %XX of one is the character. */
function isUnreserved(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e || code === 0x5f || code === 0x7e;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/** §6.2.2.2 and §6.2.2.1: %XX of an unreserved character decoded, the hex digits of every other uppercased. */
export function normalizePercentEncoding(text: string): string {
  let at = text.indexOf('%');
  if (at === -1) return text;
  let out = '';
  let copied = 0;
  for (; at !== -1; at = text.indexOf('%', at + 1)) {
    const high = hexValue(text.charCodeAt(at + 1));
    const low = hexValue(text.charCodeAt(at + 2));
    if (high < 0 || low < 0) continue; // not an escape: kept as written
    const code = high * 16 + low;
    out += text.slice(copied, at) + (isUnreserved(code) ? String.fromCharCode(code) : text.slice(at, at + 3).toUpperCase());
    copied = at + 3;
    at += 2;
  }
  return out + text.slice(copied);
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' };

/** The scheme, the authority and the rest of `scheme://authority/rest`, or undefined for other shapes. */
function splitUrl(url: string): { scheme: string; authority: string; rest: string } | undefined {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url);
  if (match === null) return undefined;
  const start = match[0].length;
  let end = start;
  while (end < url.length && !'/?#'.includes(url.charAt(end))) end++;
  return { scheme: (match[1] ?? '').toLowerCase(), authority: url.slice(start, end), rest: url.slice(end) };
}

/** The host lowercased (userinfo is case-sensitive), a default or empty port dropped. */
function normalizeAuthority(authority: string, scheme: string): string {
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  let hostPort = authority.slice(at + 1).toLowerCase();
  const port = /:(\d*)$/.exec(hostPort);
  if (port !== null && (port[1] === '' || port[1] === DEFAULT_PORTS[scheme])) hostPort = hostPort.slice(0, port.index);
  return userinfo + hostPort;
}

/** §5.2.4: `.` and `..` segments of a path resolved; `..` never climbs above the root. */
export function removeDotSegments(path: string): string {
  if (!path.includes('.')) return path;
  const segments = path.split('/');
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && out.length > 1) out.pop();
      if (last) out.push('');
      return;
    }
    out.push(segment);
  });
  return out.join('/');
}

/** A URL in its normal form for matching. Text that is not `scheme://…` only has its escapes normalised. */
export function normalizeUrl(url: string): string {
  const decoded = normalizePercentEncoding(url);
  const parts = splitUrl(decoded);
  if (parts === undefined) return decoded;
  const queryAt = parts.rest.search(/[?#]/);
  const path = queryAt === -1 ? parts.rest : parts.rest.slice(0, queryAt);
  const tail = queryAt === -1 ? '' : parts.rest.slice(queryAt);
  return `${parts.scheme}://${normalizeAuthority(parts.authority, parts.scheme)}${removeDotSegments(path)}${tail}`;
}

/**
 * A glob's text in the same normal form: escapes normalised, and when it starts with a scheme, the
 * scheme and host lowercased and a default port dropped. Wildcards stay where they are written
 * (`%2A` is an escaped `*`, data, and stays escaped); dot segments in a glob are left as written.
 */
export function normalizeGlobText(glob: string): string {
  const decoded = normalizePercentEncoding(glob);
  const parts = splitUrl(decoded);
  if (parts === undefined) return decoded;
  return `${parts.scheme}://${normalizeAuthority(parts.authority, parts.scheme)}${parts.rest}`;
}
