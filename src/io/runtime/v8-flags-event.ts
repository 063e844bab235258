// The event the CLI emits on `process` just before it changes V8's flags (io/runtime/wasm-baseline.ts).
// V8 refuses a code cache taken under other flags than its own, so the bin's code cache
// (io/runtime/code-cache.ts) takes its cache when it hears this, while the flags are still those
// every start has, and not at exit.
export const V8_FLAGS_CHANGING = 'agentsync:v8-flags-changing';
