/** Memory budget: estimates of what an allocation needs, refused up front (one line) past the caller's budget. */
import { fail } from "./errors.js";
import { describeValue } from "./option-checks.js";

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** The largest default budget (bytes), whatever the machine has. */
export const MAX_DEFAULT_BUDGET = 32 * GIB;
/** The smallest budget a command line accepts (bytes). */
export const MIN_BUDGET = MIB;

/**
 * A need past this many bytes (1 PiB) is one no machine's memory holds: refused as such, with no budget to suggest.
 */
export const NO_MACHINE_BYTES = 1024 ** 5;

/** Bytes for people: 1.5 GiB, 300 MiB, 12 KiB, 512 bytes; from 10,000 GiB up the GiB grouped (18,600,000 GiB). */
export function formatBytes(n: number): string {
  if (n >= 10_000 * GIB) return `${Number((n / GIB).toPrecision(3)).toLocaleString("en-US")} GiB`;
  if (n >= GIB) return `${Number((n / GIB).toPrecision(3))} GiB`;
  if (n >= MIB) return `${Number((n / MIB).toPrecision(3))} MiB`;
  if (n >= 1024) return `${Number((n / 1024).toPrecision(3))} KiB`;
  return `${n} bytes`;
}

const SIZE = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i;
const UNIT: { [u: string]: number } = { "": 1, k: 1024, m: MIB, g: GIB, t: 1024 * GIB };

/** Parses a size such as 512M, 4G, 1.5GiB, 1048576 (bytes); null when it is not one. */
export function parseByteSize(text: string): number | null {
  const m = SIZE.exec(text.trim());
  if (!m) return null;
  const v = Math.floor(Number(m[1]) * UNIT[m[2]!.toLowerCase()]!);
  return Number.isSafeInteger(v) ? v : null;
}

/** The option every budgeted entry point takes: the bytes it may allocate. */
export const MEMORY_OPTION = "maxMemory";

/**
 * The one check of the option maxMemory: undefined or null (the default budget), or a number of bytes above 0
 * (Infinity: no limit); throws a one-line BAD_OPTION error of `module` on field maxMemory.
 */
export function checkMaxMemory(module: string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number" && v > 0) return v;
  throw fail(module, "BAD_OPTION", `${MEMORY_OPTION} must be a number of bytes above 0, got ${describeValue(v)}`, {
    field: MEMORY_OPTION,
  });
}

/**
 * Refuses, before allocating, work that needs more than `budget` bytes: `bytes` is the estimate,
 * `what` says for what (e.g. "a dense 16384 x 16384 matrix"). One line: what is needed, the budget
 * and how to raise it (the option maxMemory, which a command line names by its own flag: cliMessage).
 */
export function checkMemory(
  module: string,
  bytes: number,
  what: string,
  budget: number,
  place: { file?: string; field?: string } = {},
): void {
  const problem = memoryProblem(bytes, what, budget);
  if (problem !== null) throw fail(module, "BAD_INPUT", problem, place);
}

/**
 * What checkMemory says after its module and place when `what` needs `bytes` past `budget` (`what` needs about ...,
 * past the memory budget of ..., and how to raise it), or null when the budget holds them.
 */
export function memoryProblem(bytes: number, what: string, budget: number): string | null {
  if (!(bytes > budget)) return null;
  const needed = Number.isFinite(bytes) ? `about ${formatBytes(bytes)}` : "more memory than any machine has";
  // past what any machine holds, the budget is not the problem: no value of the option would admit it
  if (!(bytes <= NO_MACHINE_BYTES)) return `${what} needs ${needed}: ${NO_BUDGET}`;
  return `${what} needs ${needed}, past the memory budget of ${formatBytes(budget)} (${raiseBudgetHint(bytes)})`;
}

/** What a refusal says of a need past NO_MACHINE_BYTES (the command line names its flag: cliMessage). */
const NO_BUDGET = `no value of the option ${MEMORY_OPTION} can hold it`;

/**
 * How a refusal says to raise the budget so that it admits `bytes`: the option, and a size that would do; for a need
 * past NO_MACHINE_BYTES, that no budget can hold it.
 */
export function raiseBudgetHint(bytes: number): string {
  if (!(bytes <= NO_MACHINE_BYTES)) return NO_BUDGET;
  return `raise it with the option ${MEMORY_OPTION} (bytes), e.g. ${suggest(bytes)}`;
}

/** A budget that would admit `bytes` (at most NO_MACHINE_BYTES), written as a size (3M, 2G). */
function suggest(bytes: number): string {
  return bytes >= GIB ? `${Math.ceil(bytes / GIB)}G` : `${Math.ceil(bytes / MIB)}M`;
}

/** Bytes of a dense P x P matrix of doubles (the matrix readers' storage). */
export function denseMatrixBytes(p: number): number {
  return p * p * 8;
}

/** The most a dense matrix reader works in besides the matrix (bytes). */
export const DENSE_READ_WORK_CAP = 8 * MIB;

/**
 * Bytes reading a dense P x P matrix takes: the matrix, and the reader's working set (its 1 MiB read buffer, the
 * tokenizer's short-lived values, the young generation and the compiled code of the hot loop), which grows with the
 * text (two bytes an entry at least) and levels off at DENSE_READ_WORK_CAP (5-8 MiB measured from P = 1024 up).
 */
export function denseReadBytes(p: number): number {
  const matrix = denseMatrixBytes(p);
  return matrix + Math.min(DENSE_READ_WORK_CAP, matrix / 2);
}

/**
 * A rough upper estimate of the bytes a command needs to work on a schedule of `p` nodes, `steps`
 * steps and `transfers` transfers: `perNode`, `perStep` and `perTransfer` bytes each (the command's
 * own figures), plus the schedule's columns.
 */
export function scheduleWorkBytes(
  s: { p: number; stepCount: number; transferCount: number },
  perNode: number,
  perStep: number,
  perTransfer: number,
): number {
  return s.p * perNode + s.stepCount * perStep + s.transferCount * perTransfer;
}
