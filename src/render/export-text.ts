// The text of an exported manifest: where it came from, the manifest itself, and the
// secrets it needs (by name only; their values are never written).
import type { ExportedManifest } from '../core/export-manifest.js';
import type { ResourceType } from '../core/kinds/index.js';
import { SCHEMA_FILE } from '../core/starter-manifest.js';
import { exportKeyOrder } from '../core/export-order.js';
import { splitExport, ENVIRONMENTS_PART } from '../core/export-split.js';
import { renderManifestYaml } from './manifest-yaml.js';
import { appendAll, maxOf } from '../core/arrays.js';

export interface ExportOrigin {
  agentsyncVersion: string;
  environment: string;
  appId: string;
  region: string;
  /** The manifest's JSON Schema (agentsync.schema.json) is beside where the export goes, so the editor comment can point at it. */
  schemaBeside: boolean;
}

export function renderExport(exported: ExportedManifest, origin: ExportOrigin): string {
  const counted = Object.entries(exported.counts).map(([type, n]) => plural(n, type));
  const header = [
    // Pointing an editor at a file that is not there only earns a warning: `agentsync init` writes it.
    ...(origin.schemaBeside ? [`yaml-language-server: $schema=./${SCHEMA_FILE}`] : []),
    `Exported by agentsync ${origin.agentsyncVersion} from app "${origin.appId}" (region ${origin.region}, environment "${origin.environment}").`,
    // No time: the same server gives the same bytes, so a nightly export can be compared with git diff.
    `It holds everything the server listed: ${counted.join(', ') || 'nothing'}.${unreadableNote(exported.unreadable, exported.counts)}${leftOutNote(exported.leftOut)}`,
    'Adopt it into the state with `agentsync import`; `agentsync plan` then shows no changes.',
  ];
  return renderManifestYaml(exported.document, { header, trailer: trailerLines(exported), keyOrder: exportKeyOrder });
}

/** One file of `export --split`: its path in the folder and its text. */
export interface ExportFile {
  path: string;
  text: string;
}

/**
 * The export as a folder of parts (core/export-split.ts). The environments file says where the
 * export came from; each file lists the secrets and shared names of the resources it holds.
 */
export function renderExportParts(exported: ExportedManifest, origin: Omit<ExportOrigin, 'schemaBeside'>): ExportFile[] {
  const counted = Object.entries(exported.counts).map(([type, n]) => plural(n, type));
  return splitExport(exported.document).map((part) => {
    if (part.content !== undefined) return { path: part.path, text: part.content };
    const header =
      part.path === ENVIRONMENTS_PART
        ? [
            `Exported by agentsync ${origin.agentsyncVersion} from app "${origin.appId}" (region ${origin.region}, environment "${origin.environment}"), as a folder of files.`,
            `The folder holds everything the server listed: ${counted.join(', ') || 'nothing'}.${unreadableNote(exported.unreadable, exported.counts)}${leftOutNote(exported.leftOut)}`,
            'Plan the whole folder with `agentsync plan -f <folder>`; adopt it into the state with `agentsync import -f <folder>`.',
          ]
        : [`Part of the manifest exported by agentsync ${origin.agentsyncVersion} from app "${origin.appId}"; the folder is the manifest.`];
    const within = (address: string): boolean => part.addresses.has(address);
    const trailer = trailerLines({ secrets: exported.secrets.filter((s) => within(s.address)), sharedIdentities: exported.sharedIdentities.filter((s) => within(s.address)) });
    return { path: part.path, text: renderManifestYaml(part.document, { header, trailer, keyOrder: exportKeyOrder }) };
  });
}

function trailerLines(exported: Pick<ExportedManifest, 'secrets' | 'sharedIdentities'>): string[] {
  const lines: string[] = [];
  if (exported.secrets.length > 0) {
    const width = maxOf(exported.secrets.map((s) => s.name.length));
    lines.push(`Secrets (${exported.secrets.length}): these values were not exported. Before import, plan or apply, set each`, 'environment variable to the value it stands for:');
    appendAll(
      lines,
      exported.secrets.map((s) => `  ${s.name.padEnd(width)}  ${s.address} ${s.path}`),
    );
  }
  if (exported.sharedIdentities.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push('These share a name on the server, so `agentsync import` cannot adopt them by name; adopt each by id:');
    appendAll(
      lines,
      exported.sharedIdentities.map((s) => `  agentsync import ${s.address} ${s.remoteId}`),
    );
  }
  return lines;
}

/** Records listed but not written (Kind.notExported): named, so the header still says what the file holds. */
function leftOutNote(leftOut: ExportedManifest['leftOut']): string {
  if (leftOut.length === 0) return '';
  return ` Left out: ${leftOut.map((record) => `${record.type} ${JSON.stringify(record.name)}`).join(', ')}.`;
}

/** One warning line per record the export left out, and why. */
export function leftOutWarnings(leftOut: ExportedManifest['leftOut']): string {
  return leftOut.map((record) => `Warning: ${record.type} ${JSON.stringify(record.name)} is not exported: ${record.why}.\n`).join('');
}

function unreadableNote(types: readonly ResourceType[], counts: ExportedManifest['counts']): string {
  if (types.length === 0) return '';
  const named = types.filter((t) => (counts[t] ?? 0) > 0);
  const none = types.filter((t) => (counts[t] ?? 0) === 0);
  const notes = [
    ...(none.length > 0 ? [` The API cannot list ${none.map((t) => `${t}s`).join(' or ')}, so none are exported.`] : []),
    ...named.map((t) => ` The API cannot list ${t}s: only those a builder agent attaches are exported, by id.`),
  ];
  return notes.join('');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** One warning line per file the export names but could not write; `folder` is where the manifest's paths start (`split/`, or empty). */
export function suppliedFileWarnings(supplied: ExportedManifest['supplied'], folder: string): string {
  return supplied.map((file) => `Warning: ${file.type} ${JSON.stringify(file.name)} cannot be downloaded: put it at ${JSON.stringify(folder + file.path)} before planning the export.\n`).join('');
}
