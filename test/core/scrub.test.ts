// Scrubbing printed text: secret strings in every printed form, URL credentials, short values.
import { describe, expect, it } from 'vitest';
import { maskUrlCredentials, MIN_SCRUB_LENGTH, printedForms, Scrubber } from '../../src/core/scrub.js';

const scrubberOf = (...values: (string | undefined)[]) => {
  const scrubber = new Scrubber();
  scrubber.add(values);
  return scrubber;
};

describe('Scrubber', () => {
  const secret = 'web_sécret+77 "hid"/den';

  it.each([
    ['raw', secret],
    ['percent-encoded (a path segment)', encodeURIComponent(secret)],
    ['percent-encoded (a whole URL)', encodeURI(secret)],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ['JSON-escaped twice', JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1)],
  ])('hides the %s form', (_name, form) => {
    const text = `POST /website/${form}/process failed: Website '${form}' does not exist`;
    const out = scrubberOf(secret).scrub(text);
    expect(out).toBe(`POST /website/(sensitive)/process failed: Website '(sensitive)' does not exist`);
  });

  it('lists each printed form once', () => {
    expect(printedForms('plain-value')).toEqual(['plain-value']);
    expect(printedForms('a b')).toEqual(['a b', 'a%20b']);
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    expect(scrubberOf('abcd', 'abcdefgh').scrub('x abcdefgh y abcd')).toBe('x (sensitive) y (sensitive)');
  });

  it(`ignores values shorter than ${MIN_SCRUB_LENGTH} characters, blank ones and undefined`, () => {
    const scrubber = scrubberOf('abc', '    ', undefined, '');
    expect(scrubber.size).toBe(0);
    expect(scrubber.scrub('abc abc')).toBe('abc abc');
    expect(scrubberOf('abcd').scrub('abcd')).toBe('(sensitive)');
  });

  it('treats regular-expression characters literally', () => {
    expect(scrubberOf('a.b*c(d)').scrub('a.b*c(d) axbbc(d)')).toBe('(sensitive) axbbc(d)');
  });
});

describe('maskUrlCredentials', () => {
  it.each([
    ['http://deploy:Hunter2Pass@10.0.0.1/v3', 'http://deploy:***@10.0.0.1/v3'],
    ['see https://Hunter2Pass@example.com/x and more', 'see https://***@example.com/x and more'],
    ['postgres://u:p@ss@db:5432/state', 'postgres://u:***@db:5432/state'],
    ['"http://u:Hunter2Pass@exa mple.com/v3" is not a URL', '"http://u:***@exa mple.com/v3" is not a URL'],
    ['https://example.com/users/a@b.com', 'https://example.com/users/a@b.com'],
    ['mail me: a@b.com', 'mail me: a@b.com'],
    ['no url at all', 'no url at all'],
  ])('%s', (input, expected) => {
    expect(maskUrlCredentials(input)).toBe(expected);
    expect(new Scrubber().scrub(input)).toBe(expected);
  });
});
