// What a kind's manifest entry is (kinds/<kind>/manifest.ts): where its map sits, the rule its keys
// follow, the zod schema of one entry, and the spec an entry asks for. core/schema.ts builds the
// manifest's sections from these and core/build-desired.ts the desired resources, so neither names
// a kind. Kept apart from the Kind contract (./kind.ts) so that the schema never loads a kind's calls.

/**
 * Sensitive locations inside a spec, as key paths (e.g. ['integrationMeta', 'headers']).
 * The value at each path (a string or a whole subtree) is never printed or stored: plans show
 * "(sensitive)" and state keeps a keyed digest.
 */
export type SensitivePath = readonly (string | number)[];

export interface KindEntry<Entry extends object, Spec extends object, Section extends readonly string[] = readonly string[]> {
  /** Where the kind's map sits in a manifest (the path before an entry's key), e.g. ['tools']. */
  section: Section;
  /** The rule a manifest key follows; a new address (`state mv`) must too. */
  keyPattern: RegExp;
  /** The key's schema (its pattern, with the message validate prints). */
  keySchema: EntrySchema<string>;
  /** One entry's zod schema; build it on first use (z.lazy) when most manifests have none of the kind. */
  schema: EntrySchema<Entry>;
  /** The spec a validated entry asks for, its `environments:` already taken off. */
  build(entry: Omit<Entry, 'environments'>, key: string): Spec;
  /** Paths of the spec that are sensitive however they were written (an agent's integrationMeta.headers). */
  alwaysSensitive?(spec: Spec): SensitivePath[];
  /** When an entry may name a local file whose content is part of the spec (a text entry's `file`). */
  localFile?: LocalFileRule<Spec>;
}

/**
 * A local file an entry names (`file: kb/refunds.md`), relative to the manifest file that names it.
 * io/manifest/local-files.ts reads it before the manifest is resolved, so that core stays pure and
 * every problem is one diagnostic at the `file:` value.
 */
export interface LocalFileRule<Spec extends object> {
  /** The entry's field that names the file. */
  field: string;
  /** `text`: the content, as UTF-8 text; `digest`: only its size and SHA-256, read as a stream. */
  read: 'text' | 'digest';
  /** Larger files are refused from their size, before any byte is read. */
  maxBytes: number;
  /** What is wrong with the file for this kind (its type, its length), or undefined. */
  problem?(file: LocalFile): string | undefined;
  /** The spec with the file's content in it. */
  fill(spec: Spec, file: LocalFile): Spec;
}

/** A local file as read: `text` for a `text` rule, `digest` (sha256, hex) for a `digest` rule. */
export interface LocalFile {
  /** The path as the manifest writes it. */
  written: string;
  /** The absolute path, for the upload (never stored: the state compares content, not where it lies). */
  path: string;
  /** Its name without folders (`handbook.pdf`). */
  name: string;
  bytes: number;
  text?: string;
  digest?: string;
}

/** What reading the local files found, by address (`text.refunds`): the file, or why it could not be used. */
export type LocalFiles = ReadonlyMap<string, LocalFile | { problem: string }>;

/**
 * A schema as the Standard Schema interface describes one, which zod's schemas are: named without
 * importing zod, so that the package's public types (scripts/public-types.mjs) need none.
 */
export interface EntrySchema<Output = unknown, Input = unknown> {
  readonly '~standard': { readonly types?: { readonly input: Input; readonly output: Output } | undefined };
}

type SchemaOutput<S> = S extends EntrySchema ? NonNullable<S['~standard']['types']>['output'] : never;
type SchemaInput<S> = S extends EntrySchema ? NonNullable<S['~standard']['types']>['input'] : never;

/** Any kind's entry, for tables of them: its entry type erased. */
export interface AnyKindEntry {
  section: readonly string[];
  schema: EntrySchema;
  build(entry: never, key: string): object;
}

/** The spec type a kind's entry builds. */
export type EntrySpec<E> = E extends { build(entry: never, key: string): infer Spec } ? Spec : never;

/**
 * The manifest's maps of the kinds, typed from their entries: `{ tools: Record<string, Tool> } &
 * { knowledgeBase?: { websites: Record<string, Website> } } & …`. `Io` picks zod's input or output.
 */
export type KindSections<Entries extends Record<string, AnyKindEntry>, Io extends 'input' | 'output'> = UnionToIntersection<
  { [T in keyof Entries]: Nest<Entries[T]['section'], Record<string, Io extends 'input' ? SchemaInput<Entries[T]['schema']> : SchemaOutput<Entries[T]['schema']>>, Io> }[keyof Entries]
>;

/** A map at a section path; maps the manifest may leave out are optional in its input, and groups in both. */
type Nest<Path extends readonly string[], Value, Io> = Path extends readonly [infer Head extends string]
  ? Io extends 'input'
    ? { [K in Head]?: Value }
    : { [K in Head]: Value }
  : Path extends readonly [infer Head extends string, ...infer Rest extends readonly string[]]
    ? { [K in Head]?: Nest<Rest, Value, Io> }
    : never;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
