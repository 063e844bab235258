// The code cache's checksum (src/io/runtime/checksum.ts), a WebAssembly function written out byte by
// byte: it must be the sum its comment describes, for any length and offset.
import { describe, expect, it } from 'vitest';
import { canChecksum, checksum } from '../../../src/io/runtime/checksum.js';

describe('the code cache’s checksum', () => {
  /** The same sum in plain JavaScript: FNV-1a over little-endian 32-bit words, then the last bytes. */
  function reference(bytes: Uint8Array): number {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const words = bytes.length & ~3;
    let sum = 0x811c9dc5 | 0;
    for (let i = 0; i < words; i += 4) sum = Math.imul(sum ^ view.getInt32(i, true), 0x01000193);
    for (let i = words; i < bytes.length; i++) sum = Math.imul(sum ^ (bytes[i] ?? 0), 0x01000193);
    return sum >>> 0;
  }

  it('is the FNV-1a sum of the words, for every length and offset, across memory growth', () => {
    expect(canChecksum()).toBe(true);
    const bytes = new Uint8Array(300_001);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2_654_435_761) >>> 24;
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [0, 3],
      [0, 4],
      [1, 9],
      [3, 65_539],
      [0, 300_001],
      [7, 131_072],
    ] as const) {
      const part = bytes.subarray(start, end);
      expect({ start, end, sum: checksum(part) }).toEqual({ start, end, sum: reference(part) });
    }
  });

  it('changes with any one changed word or byte', () => {
    const bytes = new Uint8Array(10_003).map((_, i) => i % 251);
    const original = checksum(bytes);
    for (const at of [0, 1, 4_000, 10_000, 10_002]) {
      const changed = bytes.slice();
      changed[at] = (changed[at] ?? 0) ^ 0x01;
      expect({ at, same: checksum(changed) === original }).toEqual({ at, same: false });
    }
  });
});
