// The kinds' public face: the Kind contract (./kind.ts) and the registry that lists them (./registry.ts).
export * from './kind.js';
export * from './registry.js';
