// `export --split DIR`: one exported manifest document cut into the parts of a manifest in many
// files, the way a team would lay it out: the environments in one file, each agent in a file of
// its own with the tools only it uses, the tools several agents share (or none uses) in one file,
// and the websites in one. Merging the parts (core/merge-parts.ts) gives the document back.
import type { JsonObject, JsonValue } from './api-types.js';
import { addressOf } from './kinds/index.js';

export interface ExportPart {
  /** Relative to the folder, with `/` between names. */
  path: string;
  document: JsonObject;
  /** The resources it holds (for the secrets and shared identities its comments list). */
  addresses: ReadonlySet<string>;
}

export const ENVIRONMENTS_PART = 'environments.yaml';
export const SHARED_TOOLS_PART = 'tools.yaml';
export const WEBSITES_PART = 'websites.yaml';
export const AGENTS_FOLDER = 'agents';

export function splitExport(document: JsonObject): ExportPart[] {
  const tools = objectAt(document.tools);
  const agents = objectAt(document.agents);
  const usersOf = toolUsers(agents);
  const parts: ExportPart[] = [];

  const head: JsonObject = { version: document.version ?? 1 };
  if (document.environments !== undefined) head.environments = document.environments;
  parts.push({ path: ENVIRONMENTS_PART, document: head, addresses: new Set() });

  const fileNames = new FileNames();
  for (const [key, agent] of Object.entries(agents)) {
    const own = Object.entries(tools).filter(([name]) => onlyUser(usersOf.get(name)) === key);
    const part: JsonObject = { agents: { [key]: agent } };
    if (own.length > 0) part.tools = Object.fromEntries(own);
    parts.push({ path: `${AGENTS_FOLDER}/${fileNames.take(key)}.yaml`, document: part, addresses: new Set([addressOf('agent', key), ...own.map(([name]) => addressOf('tool', name))]) });
  }

  const shared = Object.entries(tools).filter(([name]) => onlyUser(usersOf.get(name)) === undefined);
  const external = document.external;
  if (shared.length > 0 || external !== undefined) {
    const part: JsonObject = {};
    if (shared.length > 0) part.tools = Object.fromEntries(shared);
    if (external !== undefined) part.external = external;
    parts.push({ path: SHARED_TOOLS_PART, document: part, addresses: new Set(shared.map(([name]) => addressOf('tool', name))) });
  }

  if (document.knowledgeBase !== undefined) {
    const websites = Object.keys(objectAt(objectAt(document.knowledgeBase).websites));
    parts.push({ path: WEBSITES_PART, document: { knowledgeBase: document.knowledgeBase }, addresses: new Set(websites.map((key) => addressOf('website', key))) });
  }
  return parts;
}

/** Which agents name each tool, in their tools or actions. */
function toolUsers(agents: JsonObject): Map<string, Set<string>> {
  const users = new Map<string, Set<string>>();
  for (const [key, agent] of Object.entries(agents)) {
    const entry = objectAt(agent);
    for (const field of ['tools', 'actions']) {
      const names = entry[field];
      if (!Array.isArray(names)) continue;
      for (const name of names) {
        if (typeof name !== 'string') continue;
        const set = users.get(name) ?? new Set<string>();
        set.add(key);
        users.set(name, set);
      }
    }
  }
  return users;
}

function onlyUser(users: ReadonlySet<string> | undefined): string | undefined {
  if (users === undefined || users.size !== 1) return undefined;
  return users.values().next().value;
}

/**
 * A file name per agent key: only letters, digits, `_`, `-` and `.` (a key may hold anything
 * YAML allows), never a name starting with a dot (the manifest reader skips those), never a name
 * Windows reserves for a device (`con`, `aux`, `com1`…, whatever follows the first dot: `con.yaml`
 * cannot be created there), and unique without regard to case, so the folder is the same on a
 * file system that ignores case.
 */
class FileNames {
  private readonly taken = new Set<string>();

  take(key: string): string {
    const safe =
      key
        .replace(/[^A-Za-z0-9_.-]/g, '_')
        .replace(/^\./, '_')
        .slice(0, 100)
        .replace(WINDOWS_DEVICE, '$1_') || 'agent';
    let name = safe;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${safe}-${n}`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}

/** A stem Windows keeps for a device, with what follows it (from its first dot): `$1_` makes it a plain name. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?=\.|$)/i;

function objectAt(value: JsonValue | undefined): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}
