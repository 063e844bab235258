// Scrubbing text before it is printed: known secret strings (the API key, ${secret:…} values,
// inline integrationMeta.headers) become "(sensitive)", in every form in which they can appear in
// output, and the user:password part of any URL is masked. Pure; io/api/outside-text.ts applies it to
// text that comes from outside (server messages, failed-call paths, exception messages) only.

export const SCRUBBED = '(sensitive)';

/**
 * Values shorter than this are not scrubbed: replacing every "a" or "42" would mangle all output,
 * and a secret that short is guessed faster than it is hidden. Plans still show such values as
 * (sensitive); only a server echoing one back in a message would print it.
 */
export const MIN_SCRUB_LENGTH = 4;

/**
 * The forms in which a value appears in output: as is, percent-encoded in a path, and escaped
 * inside JSON once or twice (a server message that quotes JSON, inside our --json output).
 */
export function printedForms(value: string): string[] {
  const forms = new Set<string>([value, encodeURIComponent(value), safeEncodeUri(value)]);
  for (const form of [...forms]) {
    const once = jsonEscape(form);
    forms.add(once).add(jsonEscape(once));
  }
  return [...forms];
}

function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function safeEncodeUri(value: string): string {
  try {
    return encodeURI(value);
  } catch {
    return value; // a lone surrogate cannot be encoded, so it cannot appear encoded either
  }
}

export class Scrubber {
  private readonly needles = new Set<string>();
  private pattern: RegExp | undefined;

  /** Adds values to hide; blank and short ones are ignored (see MIN_SCRUB_LENGTH). */
  add(values: Iterable<string | undefined>): void {
    let added = false;
    for (const value of values) {
      if (value === undefined || value.trim().length < MIN_SCRUB_LENGTH) continue;
      for (const form of printedForms(value)) {
        if (!this.needles.has(form)) {
          this.needles.add(form);
          added = true;
        }
      }
    }
    // Longest first, so a secret that contains another is replaced whole.
    if (added)
      this.pattern = new RegExp(
        [...this.needles]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|'),
        'g',
      );
  }

  get size(): number {
    return this.needles.size;
  }

  scrub(text: string): string {
    const masked = maskUrlCredentials(text);
    return this.pattern === undefined ? masked : masked.replace(this.pattern, SCRUBBED);
  }
}

/**
 * scheme://user:password@ → scheme://user:***@, and scheme://token@ → scheme://***@ (a user part
 * without a password is often a token). The last "@" before the host ends the user part; a user
 * name that is itself a URL-ish mess is masked whole.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]*(?:@[^\s/?#@"'<>]*)*)@/gi;

export function maskUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(URL_CREDENTIALS, (_all, scheme: string, userInfo: string) => {
    const colon = userInfo.indexOf(':');
    const user = colon > 0 ? userInfo.slice(0, colon) : '';
    return user !== '' && !user.includes('@') && user !== '***' ? `${scheme}${user}:***@` : `${scheme}***@`;
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
