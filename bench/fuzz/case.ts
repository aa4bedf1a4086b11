/** The shape of a fuzz case: what is laid out on disk, the command, and what its outcome must satisfy. */

/** One thing laid out in the case's directory before it runs (paths relative to its working directory). */
export type Setup =
  | { readonly kind: "file"; readonly path: string; readonly bytes: Uint8Array | string }
  | { readonly kind: "copy"; readonly path: string; readonly from: string }
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "rm"; readonly path: string }
  | { readonly kind: "symlink"; readonly path: string; readonly target: string }
  | { readonly kind: "fifo"; readonly path: string }
  | { readonly kind: "sparse"; readonly path: string; readonly size: number }
  | { readonly kind: "readonly"; readonly path: string };

/** What the exit code must be: any of 0, 1, 2 (one line when 2); 0; 2; 1 or 2; 0 or 1. */
export type Expect = "any" | "ok" | "refused" | "not-ok" | "not-refused";

/** A written file and how its text is checked. */
export interface OutputCheck {
  readonly path: string;
  readonly grammar: "goal" | "xml" | "platform" | "trace" | "none";
}

/** A fuzz case. */
export interface FuzzCase {
  /** The surface it exercises (a row of the record). */
  readonly surface: string;
  readonly setup: readonly Setup[];
  readonly argv: readonly string[];
  readonly expect: Expect;
  /** What the refusal's message must match (with expect "refused"). */
  readonly message?: RegExp;
  /** Commands re-reading the outputs, each to exit 0 when the case exits 0. */
  readonly then?: readonly (readonly string[])[];
  /** The re-reads are two commands that must agree (the same exit code): the output read as the input was. */
  readonly thenAgree?: boolean;
  readonly outputs?: readonly OutputCheck[];
  /** Paths (files or trees) that must be byte-identical after the case: its inputs, the outside tree, the store. */
  readonly unchanged?: readonly string[];
  /** Paths that must be byte-identical after the case unless it succeeded (a refused add adds nothing). */
  readonly unchangedUnlessOk?: readonly string[];
  /** A second command whose exit code must equal this one's (the same document in another encoding or format). */
  readonly twin?: { readonly setup: readonly Setup[]; readonly argv: readonly string[] };
  /** The --max-memory the command was given (bytes): its peak resident memory is held against it. */
  readonly budget?: number;
}
