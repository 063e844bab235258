// Keyed digests of sensitive values. The key is the state's random salt, so a digest in a leaked
// state or plan file cannot be checked against a guessed secret without that state.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

export type Digester = (canonicalValue: string) => string;

export function createDigester(salt: string): Digester {
  return (value) => `hmac-sha256:${createHmac('sha256', Buffer.from(salt, 'base64')).update(value).digest('hex')}`;
}

export function newSalt(): string {
  return randomBytes(32).toString('base64');
}

export function newLineage(): string {
  return randomUUID();
}
