// The text kind's pure parts: the entry schema's limits, line ends compared as LF, the list entry
// read back, the export key, and export --split writing each text as a file of its own.
import { describe, expect, it } from 'vitest';
import { splitExport } from '../../src/core/export-split.js';
import { textKind, keyOfTitle } from '../../src/core/kinds/text/index.js';
import { textManifest } from '../../src/core/kinds/text/manifest.js';
import { normalizeSpec } from '../../src/core/normalize.js';

describe('the text entry schema', () => {
  const issues = (entry: unknown): string[] => {
    const result = textManifest.schema.safeParse(entry);
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('takes a title with inline text, or with a file', () => {
    expect(issues({ title: 'Refunds', text: 'Paid in 5 days.' })).toEqual([]);
    expect(issues({ title: 'Refunds', file: 'kb/refunds.md' })).toEqual([]);
  });

  it('says the size of a text or title over the limit, counted as JavaScript string length', () => {
    expect(issues({ title: 'Refunds', text: 'x'.repeat(5000) })).toEqual([]);
    expect(issues({ title: 'Refunds', text: 'x'.repeat(6000) })).toEqual(['text: text is 6,000 characters; a text entry holds at most 5,000']);
    expect(issues({ title: 'Refunds', text: '😀'.repeat(2501) })).toEqual(['text: text is 5,002 characters; a text entry holds at most 5,000']);
    expect(issues({ title: 't'.repeat(501), text: 'x' })).toEqual(['title: title is 501 characters; a text entry title holds at most 500']);
    expect(issues({ title: '', text: '' })).toEqual(['title: title is empty; a text entry title needs at least 1 character', 'text: text is empty; a text entry needs at least 1 character']);
  });

  it('refuses text and file together, neither, and unknown keys', () => {
    expect(issues({ title: 'A', text: 'x', file: 'a.md' })).toEqual(['file: give text or file, not both (file: a local file whose content is the text)']);
    expect(issues({ title: 'A' })).toEqual([': a text entry needs text (inline) or file (a local file whose content is the text)']);
    expect(issues({ title: 'A', text: 'x', split: 'headings' })).toHaveLength(1);
  });

  it('refuses a file over the limit, and fills the spec with its content', () => {
    const rule = textManifest.localFile!;
    const file = { written: 'kb/a.md', path: '/x/kb/a.md', name: 'a.md', bytes: 6000, text: 'y'.repeat(6000) };
    expect(rule.problem?.(file)).toBe('kb/a.md is 6,000 characters; a text entry holds at most 5,000');
    expect(rule.problem?.({ ...file, text: 'ok' })).toBeUndefined();
    expect(rule.fill({ title: 'A', text: '' }, { ...file, text: 'ok' })).toEqual({ title: 'A', text: 'ok' });
  });
});

describe('the text kind', () => {
  it('compares CRLF and lone CR as LF, and leaves a spec without CR as it is', () => {
    expect(normalizeSpec('text', { title: 'A', text: 'one\r\ntwo\rthree\n' })).toEqual({ title: 'A', text: 'one\ntwo\nthree\n' });
    const plain = { title: 'A', text: 'one\ntwo' };
    expect(normalizeSpec('text', plain)).toBe(plain);
  });

  it('reads a list entry: its id, its title as identity, its title and text, and when it was made', () => {
    const read = textKind.refresh?.read({
      uniqueId: 'u1',
      title: 'Refunds',
      text: 'Paid.',
      fileName: 'refunds.md',
      s3Key: 'a/text/u1/refunds.md',
      status: 'indexed',
      createdAt: 1700000000000,
      updatedAt: 1,
    });
    expect(read).toEqual({ remoteId: 'u1', identity: 'Refunds', spec: { title: 'Refunds', text: 'Paid.' }, createdAtMs: 1700000000000 });
    expect(textKind.refresh?.read('not an entry')).toBeUndefined();
  });

  it('keys an exported entry by a slug of its title', () => {
    expect(keyOfTitle('Refund policy (EU)')).toBe('refund_policy_eu');
    expect(keyOfTitle('Politique de remboursement é')).toBe('politique_de_remboursement_e');
    expect(keyOfTitle('返金')).toBe('text');
  });
});

describe('export --split of text entries', () => {
  const document = {
    version: 1,
    knowledgeBase: {
      texts: {
        refunds: { title: 'Refunds', text: 'Fees: $${price}; cost $$${x}.\n' },
        secret: { title: 'Key', text: 'The key is ${secret:KB_KEY}' },
        'Odd key': { title: 'Odd', text: 'odd' },
      },
    },
  };

  it('writes each text into kb/<key>.md as the text itself, the entry naming the file in its place', () => {
    const parts = splitExport(document);
    const texts = parts.find((p) => p.path === 'texts.yaml');
    expect(texts?.document).toEqual({
      knowledgeBase: {
        texts: {
          refunds: { title: 'Refunds', file: 'kb/refunds.md' },
          // A placeholder stays inline: the file could hold only the placeholder, never the secret.
          secret: { title: 'Key', text: 'The key is ${secret:KB_KEY}' },
          'Odd key': { title: 'Odd', file: 'kb/Odd_key.md' },
        },
      },
    });
    const files = Object.fromEntries(parts.filter((p) => p.content !== undefined).map((p) => [p.path, p.content]));
    // The manifest's `$${` is a literal `${`; a file is not interpolated, so it holds the text itself.
    expect(files).toEqual({ 'kb/refunds.md': 'Fees: ${price}; cost $${x}.\n', 'kb/Odd_key.md': 'odd' });
  });
});
