// Types for bench/generate.mjs, so the TypeScript torture tests can generate the same manifests.
export interface GenerateOptions {
  count: number;
  seed?: number;
  variant?: number;
  agentShare?: number;
  websites?: number;
  environment?: string;
  appId?: string;
  baseUrl?: string;
}
export function seededRandom(seed: number): () => number;
export function resourceCounts(count: number, agentShare?: number, websiteCount?: number): { tools: number; agents: number; websites: number };
export function toolNames(count: number, agentShare?: number, websiteCount?: number): string[];
export function generateManifest(options: GenerateOptions): string;
