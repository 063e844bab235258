// What one kind's folder hands the registry (./registry.ts): its Kind and the facts the stages that
// walk every kind ask of it (help wording, the graph, the refresh).
import type { DesiredResource, SpecJson } from '../desired.js';
import type { Kind, ResourceType } from './kind.js';
import type { Observable } from './observe.js';

/** How `agentsync graph` draws a node (core/graph.ts). */
export type GraphNodeKind = 'agent' | 'tool' | 'action' | 'website' | 'text' | 'external';

export interface KindModule<Spec extends object> {
  kind: Kind<Spec>;
  /** How an address of the kind is written in help and errors: `tool.<name>`. */
  addressForm: string;
  /** How the refresh reads the kind resource by resource; absent when its list (`kind.refresh`) says everything, or nothing can be read. */
  observe?: Observable<unknown>;
  /** The graph node of one record (its spec as planned or stored). */
  graphNode(record: SpecJson): { kind: GraphNodeKind; detail?: string };
  /** Which part file of `export --split` holds the kind's entries (core/export-split.ts). */
  splitPart: SplitPart;
  /** A string field `export --split` writes as a file of its own; absent when none is. */
  splitFile?: SplitFile;
  /**
   * Its resources are knowledge-base sources the server indexes one by one (text entries,
   * uploads): `kb status` and `apply --wait` follow their status (`indexing` → `indexed` or
   * `failed`) through `POST …/knowledge-base/status/poll`, by remote id (app/kb-sources.ts).
   */
  indexed?: boolean;
}

/**
 * A field that `export --split` writes into a file of its own, `<folder>/<key><extension>`, the
 * entry naming that file in `fileField` instead (a text entry's `text` as `kb/<key>.md`, named by
 * `file:`). Only right for a kind whose manifest entry reads `fileField` back into `field`
 * (its LocalFileRule), so that planning the export changes nothing.
 */
export interface SplitFile {
  field: string;
  fileField: string;
  folder: string;
  extension: string;
}

/**
 * Where `export --split` puts a kind's entries. Paths are relative to the folder, with `/`.
 * - `each`: every entry in a file of its own, `<each>/<key>.yaml` (agents);
 * - `withSoleReferrer`: an entry that exactly one `each` entry refers to (its `export.references`)
 *   goes into that entry's file; the others into `otherwise`, with the top-level keys `alongside`,
 *   a file written only when it holds something (tools, with `external`);
 * - `file`: the whole section in one file, written whenever the document has the section (websites).
 */
export type SplitPart = { each: string } | { withSoleReferrer: true; otherwise: string; alongside?: readonly string[] } | { file: string };

/** The spec of a type's desired resources. */
export type SpecOf<T extends ResourceType> = Extract<DesiredResource, { type: T }>['spec'];
