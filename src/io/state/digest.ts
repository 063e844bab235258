// Keyed digests of sensitive values, as the state and plan files keep them.
//
// The state may be committed, and its salt sits in the same file, so the salt is no secret to
// whoever holds the state: the digest must make guessing expensive by itself. A keyed HMAC did not
// (a 6-digit ${secret:PIN} fell in 2.5 s). scrypt with N=2^15, r=8, p=1 needs 32 MiB and, measured
// on the 2-core build machine, 102–110 ms per digest (min/median of 15; 39–49 ms for N=2^14). So
// trying the 10^6 six-digit PINs costs ≥ 10^6 × 0.1 s ≈ 28 hours on one core, against 2.5 s before,
// and the memory cost keeps GPUs from doing much better. The salt still differs per state, so one
// dictionary cannot serve two states.
//
// That cost is paid once per distinct sensitive value per run: digests are cached per salt for the
// life of the process, so the plan, the saved plan's manifest digest and apply share each result.
//
// Digests written before scrypt start with `hmac-sha256:`. They are still read (core/redact.ts
// recognizes both prefixes) but never equal a new digest, so each old sensitive value shows once
// as a (sensitive) update and is sent again; after that apply the state holds scrypt digests.
import { randomBytes, randomUUID, scrypt, scryptSync } from 'node:crypto';

export type Digester = (canonicalValue: string) => string;

export const DIGEST_PREFIX = 'scrypt:';

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

/** Per salt, per canonical value: nothing is digested twice in one process. */
const cache = new Map<string, Map<string, string>>();

const asDigest = (derived: Buffer): string => DIGEST_PREFIX + derived.toString('hex');

function knownFor(salt: string): Map<string, string> {
  let known = cache.get(salt);
  if (known === undefined) cache.set(salt, (known = new Map()));
  return known;
}

export function createDigester(salt: string): Digester {
  const results = knownFor(salt);
  const key = Buffer.from(salt, 'base64');
  return (value) => {
    let digest = results.get(value);
    if (digest === undefined) {
      digest = asDigest(scryptSync(value, key, KEY_LENGTH, SCRYPT));
      results.set(value, digest);
    }
    return digest;
  };
}

export function newSalt(): string {
  return randomBytes(32).toString('base64');
}

export function newLineage(): string {
  return randomUUID();
}

/** The digest of a value if this process has made it already (with this salt), without making it. */
export function madeDigest(salt: string, value: string): string | undefined {
  return cache.get(salt)?.get(value);
}

/**
 * Digests these values ahead, on libuv's thread pool, so that the digester above finds them all
 * cached. A plan with many distinct secrets otherwise digests them one after the other on the main
 * thread (0.1 s each); the pool runs them on every core. The results are exactly the digester's.
 */
export async function digestAhead(salt: string, values: readonly string[]): Promise<void> {
  const known = knownFor(salt);
  const key = Buffer.from(salt, 'base64');
  const missing = values.filter((value) => !known.has(value));
  if (missing.length < 2) return; // one digest gains nothing from the pool
  await Promise.all(
    missing.map(
      (value) =>
        new Promise<void>((resolve, reject) => {
          scrypt(value, key, KEY_LENGTH, SCRYPT, (err, derived) => {
            if (err) reject(err);
            else {
              known.set(value, asDigest(derived));
              resolve();
            }
          });
        }),
    ),
  );
}
