// A 32-bit checksum for the code cache's files (io/runtime/code-cache.ts), computed by a
// WebAssembly function of a few dozen bytes. It runs at every start, over ~750 KB, so what it costs
// is start-up: Node's own checksums load more than they save (zlib.crc32 loads Node's stream
// machinery, ~3 ms; crypto ~4 ms), and a JavaScript loop over the file runs interpreted, 2–5 ms.
// This one compiles in microseconds and sums the file in ~0.3 ms.
// The sum is FNV-1a over the file's little-endian 32-bit words, then its last 0–3 bytes: every step
// is a bijection of the running sum, so any one changed word always changes the result, and more
// changes go unnoticed with a chance of 2^-32. It guards against damage, not against an attacker
// (who could as well change the bundle).
// Without WebAssembly (`node --jitless`) there is no checksum, and so no cache.

/** The module, byte for byte: one memory, exported as `memory`, and `sum(length)` over its first `length` bytes (a multiple of 4). */
// prettier-ignore
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // types: (i32) -> i32
  0x03, 0x02, 0x01, 0x00, // functions: one, of that type
  0x05, 0x03, 0x01, 0x00, 0x01, // memories: one, at least one page
  0x07, 0x10, 0x02, 0x03, 0x73, 0x75, 0x6d, 0x00, 0x00, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, // exports: "sum", "memory"
  0x0a, 0x36, 0x01, 0x34, // code: one body of 52 bytes
  0x01, 0x02, 0x7f, // locals: i ($1) and h ($2), i32
  0x41, 0xc5, 0xbb, 0xf2, 0x88, 0x78, 0x21, 0x02, // h = 0x811c9dc5
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0x01, 0x20, 0x00, 0x4f, 0x0d, 0x01, // if i >= length: leave the block
  0x20, 0x02, 0x20, 0x01, 0x28, 0x02, 0x00, 0x73, // h ^ load32(i)
  0x41, 0x93, 0x83, 0x80, 0x08, 0x6c, 0x21, 0x02, // h = (…) * 0x01000193
  0x20, 0x01, 0x41, 0x04, 0x6a, 0x21, 0x01, // i += 4
  0x0c, 0x00, 0x0b, 0x0b, // next, end loop, end block
  0x20, 0x02, 0x0b, // return h
]);

const FNV_PRIME = 0x01000193;
const PAGE_BYTES = 65_536;

/** What is used here of the WebAssembly API (TypeScript describes it only with the DOM's types). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: object };
}

interface SumModule {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly sum: (length: number) => number;
}

let compiled: SumModule | undefined;

/** Whether checksum() can answer here (it needs WebAssembly). */
export function canChecksum(): boolean {
  return sumModule() !== undefined;
}

/** The checksum of `bytes`, or undefined where WebAssembly is not available. */
export function checksum(bytes: Uint8Array): number | undefined {
  const module = sumModule();
  if (module === undefined) return undefined;
  const words = bytes.length & ~3;
  const pagesNeeded = Math.ceil(words / PAGE_BYTES);
  const pagesNow = module.memory.buffer.byteLength / PAGE_BYTES;
  if (pagesNeeded > pagesNow) module.memory.grow(pagesNeeded - pagesNow);
  new Uint8Array(module.memory.buffer, 0, words).set(bytes.subarray(0, words));
  let sum = module.sum(words);
  for (let i = words; i < bytes.length; i++) sum = Math.imul(sum ^ (bytes[i] ?? 0), FNV_PRIME);
  return sum >>> 0;
}

function sumModule(): SumModule | undefined {
  if (compiled !== undefined) return compiled;
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined) return undefined;
  compiled = new wasm.Instance(new wasm.Module(MODULE)).exports as SumModule;
  return compiled;
}
