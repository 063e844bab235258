// A command's output comes in two views, one for a person and one for a program (`--json`), chosen
// once when the command starts (Terraform's internal/command views), so that the run itself never
// asks which one it prints.

export type ViewKind = 'human' | 'json';

/** The view a command prints through, by kind. */
export type Views<V> = Readonly<Record<ViewKind, V>>;

export function viewKindOf(opts: { readonly json?: boolean }): ViewKind {
  return opts.json === true ? 'json' : 'human';
}

/** A stream a view writes to: the CLI hands it stdout and stderr (render/ opens none). */
export interface TextStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** What a view prints to: the run's two streams, and whether text on stdout may be coloured. */
export interface ViewStreams<S extends TextStream = TextStream> {
  readonly stdout: S;
  readonly stderr: S;
  readonly color: boolean;
}
