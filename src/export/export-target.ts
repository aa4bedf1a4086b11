/** The checks a format makes of its target: one file (-o or stdout), or a directory (--out). */
import { fail } from "../model/errors.js";
import { checkMachine, type MachineModel } from "../model/machine.js";
import { checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";
import type { OutputStream } from "../io/file-output.js";
import type { ExportTarget } from "./types.js";

/**
 * An ExportTarget as a format uses it, checked and with its defaults filled: split, dir, machine, chunk (null), inputs
 * ([]) and stdout (the writer's default, process.stdout) may be left out.
 */
export interface ResolvedTarget {
  readonly output: string;
  readonly split: string | null;
  readonly dir: string | null;
  readonly machine: MachineModel | null;
  readonly chunk: number | null;
  readonly inputs: readonly string[];
  /** The writers' options: the target's stdout, when it gave one. */
  readonly out: { readonly stdout?: OutputStream };
}

/** The directories of a target (null or left out: none). */
interface TargetDirectories {
  readonly dir?: string | null;
  readonly split?: string | null;
}

const TARGET_KEYS: readonly string[] = Object.freeze([
  "output",
  "split",
  "dir",
  "machine",
  "chunk",
  "inputs",
  "stdout",
]);

/** A path field of the target: a non-empty string, or null / undefined (none). */
function pathOrNull(field: string, v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "string" && v !== "") return v;
  throw fail("export", "BAD_OPTION", `${field} must be a path or null, got ${describeValue(v)}`, { field });
}

/**
 * The one check of an export target, made by every format before it writes: an object of ExportTarget's keys, output
 * a path ("-" for stdout), split and dir paths or null, machine a machine model or null, chunk a positive integer or
 * null, inputs an array of paths; the defaults filled. One-line BAD_OPTION errors naming the field.
 */
export function resolveTarget(t: ExportTarget): ResolvedTarget {
  checkOptionsObject("export", "target", t);
  if (t === undefined)
    throw fail("export", "BAD_OPTION", "the target must be an object: { output, ... }", { field: "target" });
  checkOptionKeys("export", t, TARGET_KEYS);
  const output: unknown = t.output;
  if (typeof output !== "string" || output === "")
    throw fail("export", "BAD_OPTION", `output must be a path or "-", got ${describeValue(output)}`, {
      field: "output",
    });
  const machine = t.machine ?? null;
  if (machine !== null) checkMachine(machine, "export");
  const chunk: unknown = t.chunk ?? null;
  if (chunk !== null && !(typeof chunk === "number" && Number.isSafeInteger(chunk) && chunk >= 1))
    throw fail("export", "BAD_OPTION", `chunk must be a positive integer or null, got ${describeValue(chunk)}`, {
      field: "chunk",
    });
  const inputs: unknown = t.inputs ?? [];
  if (!Array.isArray(inputs) || inputs.some((x) => typeof x !== "string"))
    throw fail("export", "BAD_OPTION", `inputs must be an array of paths, got ${describeValue(inputs)}`, {
      field: "inputs",
    });
  return {
    output,
    split: pathOrNull("split", t.split),
    dir: pathOrNull("dir", t.dir),
    machine,
    chunk: chunk as number | null,
    inputs: inputs as string[],
    out: t.stdout === undefined ? {} : { stdout: t.stdout },
  };
}

/** The directory of a multi-file format (--out, else --split); refused when neither is given. */
export function targetDirectory(t: TargetDirectories, format: string): string {
  const dir = t.dir ?? t.split ?? null;
  if (dir === null)
    throw fail("export", "BAD_OPTION", `format ${format} writes several files: give a directory (dir)`, {
      field: "out",
    });
  return dir;
}

/** Refuses a directory (--out, --split) for a format that writes one file. */
export function requireSingleFile(t: TargetDirectories, format: string): void {
  if ((t.dir ?? null) !== null || (t.split ?? null) !== null)
    throw fail(
      "export",
      "BAD_OPTION",
      `format ${format} writes one file: give a file (output, "-" for stdout), not a directory (dir or split)`,
      { field: "out" },
    );
}
