// Scrubbing text before it is printed: known secret strings (the API key, ${secret:…} values,
// inline integrationMeta.headers) become "(sensitive)", in every form in which they can appear in
// output, and the user:password part of any URL is masked. Pure; io/api/outside-text.ts applies it to
// text that comes from outside (server messages, failed-call paths, exception messages) only.
import { echoedForms } from './echoed-forms.js';

export const SCRUBBED = '(sensitive)';

/**
 * Values shorter than this are not scrubbed: replacing every "a" or "42" would mangle all output,
 * and a secret that short is guessed faster than it is hidden. Plans still show such values as
 * (sensitive); only a server echoing one back in a message would print it.
 */
export const MIN_SCRUB_LENGTH = 4;

/**
 * The forms in which a value appears in output: each form a server may echo it in (echoed-forms.ts),
 * as is and escaped inside JSON once or twice (a server message that quotes JSON, inside our --json
 * output).
 */
export function printedForms(value: string): string[] {
  const forms = new Set<string>(echoedForms(value));
  for (const form of [...forms]) {
    const once = jsonEscape(form);
    forms.add(once).add(jsonEscape(once));
  }
  return [...forms];
}

function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export class Scrubber {
  /** The values added, so a value added again (every run resolves its secrets anew) costs nothing. */
  private readonly values = new Set<string>();
  private readonly needles = new Set<string>();
  /** Built on the first scrub after an add, not on each add: many adds then cost one build. */
  private pattern: RegExp | undefined;

  /** Adds values to hide; blank and short ones are ignored (see MIN_SCRUB_LENGTH). */
  add(values: Iterable<string | undefined>): void {
    for (const value of values) {
      if (value === undefined || value.trim().length < MIN_SCRUB_LENGTH || this.values.has(value)) continue;
      this.values.add(value);
      for (const form of printedForms(value)) {
        if (this.needles.has(form)) continue;
        this.needles.add(form);
        this.pattern = undefined;
      }
    }
  }

  get size(): number {
    return this.needles.size;
  }

  scrub(text: string): string {
    const masked = maskUrlCredentials(text);
    if (this.needles.size === 0) return masked;
    // Longest first, so a secret that contains another is replaced whole. One pattern for every
    // form of every secret: the text is read once, however many there are.
    this.pattern ??= new RegExp(
      [...this.needles]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    return masked.replace(this.pattern, SCRUBBED);
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
