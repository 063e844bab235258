// zod/mini's set-up, for every module that builds a schema: import this before building one. mini's
// functional API builds schemas much faster than classic zod's methods (BENCHMARKS.md, P3), on the
// same core: the same parse, issues and JSON Schema; but classic sets up the rest by itself. The
// schemas import zod/mini themselves, so that their declarations name the package, whose types
// scripts/public-types.mjs writes out.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// - jitless: zod would write a parser for each object schema with `new Function`, code that Node's
//   compile cache cannot keep, so compiled again at every start. Its interpreted parse gives the
//   same results.
// - The English messages that diagnostics quote (classic loads them on its first schema).
// - The memoizer that classic installs, which the recursive schemas (JSON values) parse through.
z.config({ jitless: true, ...en(), memoizer: z.memoizer() });

/**
 * `schema.describe(text)` of classic zod, but on `schema` itself rather than on a copy: each schema
 * passed here is built for the one place it describes, and a copy would build every described
 * schema twice at each start. So a schema used in several places is never passed here.
 */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

/**
 * z.optional(section) for a section built on first use (z.lazy), so that a manifest without it never
 * builds it. Left alone, zod builds a lazy under z.optional as soon as it parses the object around
 * it, to ask whether the lazy's schema is optional by itself; an object never is, so that is said here.
 */
export function optionalSection<T extends z.ZodMiniObject>(section: z.ZodMiniLazy<T>): z.ZodMiniOptional<z.ZodMiniLazy<T>> {
  Object.defineProperty(section._zod, 'optin', { value: undefined });
  return z.optional(section);
}
