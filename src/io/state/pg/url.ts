// PostgreSQL state URLs: recognising one, and the only form that is ever shown, with the password
// masked. Kept apart from the store so the factory can name a location without loading `pg`.
import { UserError } from '../../../core/errors.js';

const MASK = '***';

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** Any `scheme://…`; a Windows path such as C:\x never matches. */
export function looksLikeUrl(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}

export interface PgUrl {
  /** The URL as given, for the driver only. */
  raw: string;
  /** The URL with its password (and any `password=` parameter) replaced by ***. */
  masked: string;
  /** Every form of the password that could appear in a driver message, for scrubbing. */
  secrets: string[];
}

/** `source` names where the URL came from (for the one message that cannot show it). */
export function parsePgUrl(raw: string, source: string): PgUrl {
  if (!URL.canParse(raw)) {
    // Not even a masked form can be shown safely: the password's extent is unknown.
    throw new UserError('usage', `the PostgreSQL state URL (from ${source}) is not a valid URL; percent-encode special characters in the user name and password`);
  }
  const url = new URL(raw);
  const secrets = new Set<string>();
  const addSecret = (value: string) => {
    if (value === '') return;
    secrets.add(value);
    try {
      secrets.add(decodeURIComponent(value));
    } catch {
      // a malformed escape: the raw form is enough
    }
  };
  addSecret(url.password);
  for (const [name, value] of url.searchParams) if (name.toLowerCase() === 'password') addSecret(value);

  const user = url.username === '' ? '' : `${url.username}${url.password === '' ? '' : `:${MASK}`}@`;
  const params = [...url.searchParams].map(([name, value]) => `${name}=${name.toLowerCase() === 'password' ? MASK : value}`);
  const masked = `${url.protocol}//${user}${url.host}${url.pathname === '/' ? '' : url.pathname}${params.length > 0 ? `?${params.join('&')}` : ''}`;
  return { raw, masked, secrets: [...secrets].sort((a, b) => b.length - a.length) };
}

/** Removes every form of the password from a message (a driver's message may quote its input). */
export function scrub(message: string, url: PgUrl): string {
  let out = message.split(url.raw).join(url.masked);
  for (const secret of url.secrets) out = out.split(secret).join(MASK);
  return out;
}
