// Compares what the emulator holds with what a generated manifest asks for, field by field,
// independently of agentsync's own diff (so a bug there cannot hide a bug here).
import { parse } from 'yaml';
import { type TestEmulator } from '../support/emulator.js';
import { serverAgents, serverTools } from './helpers.js';

interface ManifestTool {
  displayName: string;
  executionText: string;
  description?: string;
  parameters?: { properties?: Record<string, unknown> };
}

interface ManifestAgent {
  name: string;
  instruction?: string;
  actions?: string[];
}

interface GeneratedManifest {
  environments: Record<string, { vars?: Record<string, string> }>;
  tools?: Record<string, ManifestTool>;
  agents?: Record<string, ManifestAgent>;
}

export interface Mismatch {
  problems: string[];
  /** Agent names that exist more than once on the server. */
  duplicateAgentNames: string[];
}

/** External tools the emulator seeds, which no generated manifest manages. */
const SEEDED_TOOLS = new Set(['search_web']);

export async function compareServerWithManifest(emulator: TestEmulator, manifestYaml: string): Promise<Mismatch> {
  const manifest = parse(manifestYaml) as GeneratedManifest;
  const vars = Object.values(manifest.environments)[0]?.vars ?? {};
  const interpolate = (text: string): string => text.replace(/\$\{var\.([A-Za-z0-9_]+)\}/g, (_, name: string) => vars[name] ?? '');
  const problems: string[] = [];

  const wantedTools = manifest.tools ?? {};
  const tools = (await serverTools(emulator)).filter((t) => !SEEDED_TOOLS.has(t.name));
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const [name, want] of Object.entries(wantedTools)) {
    const got = byName.get(name);
    if (!got) {
      problems.push(`tool ${name} is missing on the server`);
      continue;
    }
    if (got.displayName !== want.displayName) problems.push(`tool ${name}: displayName ${got.displayName} ≠ ${want.displayName}`);
    if (got.executionText !== want.executionText) problems.push(`tool ${name}: executionText differs`);
    if (got.tool?.description !== want.description) problems.push(`tool ${name}: description ${got.tool?.description} ≠ ${want.description}`);
    const gotParams = Object.keys(got.tool?.parameters?.properties ?? {})
      .sort()
      .join(',');
    const wantParams = Object.keys(want.parameters?.properties ?? {})
      .sort()
      .join(',');
    if (gotParams !== wantParams) problems.push(`tool ${name}: parameters ${gotParams} ≠ ${wantParams}`);
  }
  for (const name of byName.keys()) if (!Object.hasOwn(wantedTools, name)) problems.push(`tool ${name} is on the server but not in the manifest`);

  const agents = await serverAgents(emulator);
  const counts = new Map<string, number>();
  for (const agent of agents) counts.set(agent.name, (counts.get(agent.name) ?? 0) + 1);
  const duplicateAgentNames = [...counts].filter(([, n]) => n > 1).map(([name]) => name);
  const wantedAgents = Object.values(manifest.agents ?? {});
  const wantedNames = new Set(wantedAgents.map((a) => a.name));
  for (const want of wantedAgents) {
    const matches = agents.filter((a) => a.name === want.name);
    if (matches.length === 0) {
      problems.push(`agent "${want.name}" is missing on the server`);
      continue;
    }
    // With a duplicate, the newest one is the one the state points at; every copy must still be right.
    for (const got of matches) {
      if (got.instruction !== want.instruction) problems.push(`agent "${want.name}": instruction differs`);
      if ([...got.actions].sort().join(',') !== [...new Set(want.actions ?? [])].sort().join(',')) problems.push(`agent "${want.name}": actions ${got.actions.join(',')} differ`);
      if (got.integrateWith !== interpolate('${var.model}')) problems.push(`agent "${want.name}": integrateWith ${got.integrateWith}`);
      if (got.isActive !== true) problems.push(`agent "${want.name}": isActive ${String(got.isActive)}`);
    }
  }
  for (const agent of agents) if (!wantedNames.has(agent.name)) problems.push(`agent "${agent.name}" is on the server but not in the manifest`);
  return { problems, duplicateAgentNames };
}
