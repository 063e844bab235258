// A knowledge-base website's manifest entry (docs/spec/knowledge-base.md#two-forms): its schema and
// the spec it asks for.
import * as z from 'zod/mini';
import { urlGlobProblem } from '../../url-glob.js';
import { described } from '../../zod.js';
import type { KindEntry } from '../entry.js';
import { ADDRESS_KEY_PATTERN, addressKey, httpUrl, isObjectPayload, resourceEnvironments } from '../schema-parts.js';

/** A plan matches every discovered URL against each glob: with MAX_URL_GLOB_LENGTH, this bounds its cost per URL. */
export const MAX_EXCLUDE_GLOBS = 1000;

/** A glob quoted for a diagnostic: a pathological one is thousands of characters, so only its start. */
function quoteGlob(glob: string): string {
  return glob.length <= 200 ? JSON.stringify(glob) : `${JSON.stringify(glob.slice(0, 60)).slice(0, -1)}…" (${glob.length} characters)`;
}

/** Built on first use, like varValueSchema. */
export const websiteSchema = z.lazy(() =>
  described(
    z
      .strictObject({
        url: described(z.optional(httpUrl), 'The site to crawl (POST …/website/scrape when new). Give url or parentUniqueId, not both.'),
        maxDepth: described(
          z.optional(z.number().check(z.int('maxDepth must be a whole number')).check(z.gte(1, 'maxDepth must be from 1 to 10')).check(z.lte(10, 'maxDepth must be from 1 to 10'))),
          'Crawl depth from url (1–10; the server defaults to 3).',
        ),
        maxPages: described(
          z.optional(z.number().check(z.int('maxPages must be a whole number')).check(z.gte(1, 'maxPages must be from 1 to 10000')).check(z.lte(10_000, 'maxPages must be from 1 to 10000'))),
          'Crawl page limit (1–10000; the server defaults to 100).',
        ),
        crawl: described(
          z.optional(
            z.strictObject({
              include: described(z.optional(z.array(z.string().check(z.minLength(1)))), "Crawl only URLs containing one of these substrings (the scrape's include)."),
              exclude: described(z.optional(z.array(z.string().check(z.minLength(1)))), "Do not crawl URLs containing one of these substrings (the scrape's exclude)."),
              sitemap: described(z.optional(z.boolean()), "Also read the sitemap (the scrape's fetchSitemap)."),
            }),
          ),
          'With url: what the crawl itself follows, so maxPages is spent on wanted pages. Unlike exclude (globs that pick what is processed after the crawl), a change re-crawls.',
        ),
        parentUniqueId: described(z.optional(z.string().check(z.minLength(1))), 'The id of a website already in the knowledge base (the seed form).'),
        // Not a nameSet: sorting here would make a glob's error point at another item. build-desired sorts it (its table says set).
        exclude: described(z.optional(z.array(z.string())), 'With url: URL globs to leave out (** across path segments, * within one). With parentUniqueId: discovered-URL ids (required, may be []).'),
        environments: resourceEnvironments,
      })
      .check(
        z.superRefine(
          (site, ctx) => {
            const hasUrl = site.url !== undefined;
            if (hasUrl && site.parentUniqueId !== undefined) {
              ctx.addIssue({ code: 'custom', path: ['parentUniqueId'], message: 'give url or parentUniqueId, not both (url scrapes a new website; parentUniqueId names one that exists)' });
            } else if (!hasUrl && site.parentUniqueId === undefined) {
              ctx.addIssue({ code: 'custom', path: [], message: 'a website needs url (a site to crawl) or parentUniqueId (a website already in the knowledge base)' });
            }
            if (!hasUrl) {
              for (const field of ['maxDepth', 'maxPages', 'crawl'] as const) {
                if (site[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is a crawl setting: it needs url` });
              }
              if (site.parentUniqueId !== undefined && site.exclude === undefined)
                ctx.addIssue({ code: 'custom', path: ['exclude'], message: 'missing required key "exclude" (with parentUniqueId: a list of discovered-URL ids, may be [])' });
              return;
            }
            const written: unknown = site.exclude;
            if (!Array.isArray(written)) return;
            if (written.length > MAX_EXCLUDE_GLOBS) {
              ctx.addIssue({
                code: 'custom',
                path: ['exclude', MAX_EXCLUDE_GLOBS],
                message: `a website may have at most ${MAX_EXCLUDE_GLOBS} exclude globs (this one has ${written.length}); every discovered URL is matched against each`,
              });
              return;
            }
            written.forEach((glob: unknown, index) => {
              const problem = typeof glob === 'string' ? urlGlobProblem(glob) : undefined;
              if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['exclude', index], message: `${quoteGlob(glob as string)} is not a valid URL glob: ${problem}` });
            });
          },
          { when: isObjectPayload },
        ),
      ),
    'A knowledge-base website: a url to crawl with URL globs to leave out, or the parentUniqueId of one that exists with discovered-URL ids to leave out.',
  ),
);

export type ManifestWebsite = z.output<typeof websiteSchema>;

/**
 * A website: `url` (+ crawl settings, `exclude` as URL globs) or the seed's `parentUniqueId` +
 * `exclude` of ids. `matchedUrls` is never written in a manifest: it is a fingerprint of the
 * discovered URLs the globs matched (filled from the server at plan time, recorded by apply), so a
 * changed set of matched URLs is an update (core/kinds/website/match.ts).
 */
export type WebsiteSpec = Omit<ManifestWebsite, 'environments'> & { matchedUrls?: string };

export const websiteManifest: KindEntry<ManifestWebsite, WebsiteSpec, readonly ['knowledgeBase', 'websites']> = {
  section: ['knowledgeBase', 'websites'],
  keyPattern: ADDRESS_KEY_PATTERN,
  keySchema: addressKey,
  schema: websiteSchema,
  build: (spec) => spec,
};
