/**
 * The commit of a command's finished outputs: staged temporary files renamed onto their targets, all or none, also
 * when the process is interrupted (SIGINT, SIGTERM, SIGHUP) while it runs.
 */
import { linkSync, lstatSync, renameSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { CommplanError, isCommplanError } from "../model/errors.js";
import { oneLine } from "../internal/quoted.js";
import { signalUnclaimed } from "./interrupt-cleanup.js";

/** A finished temporary file and the target it is renamed onto. */
export interface StagedRename {
  /** The temporary file (beside `file`, in the same directory). */
  readonly tmp: string;
  /** The target's path. */
  readonly file: string;
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Holds off SIGINT, SIGTERM and SIGHUP: a signal that arrives is recorded, not acted on, until `release()`, which
 * removes the handlers and raises the first recorded signal again, so the process then ends as it would have (exit
 * 128 + n through the default action, or the cleanups of interrupt-cleanup.ts first); not when the program has a
 * listener of its own for it (that listener had the signal when it came). The record lives in this
 * closure; nothing is kept at module level.
 */
function holdSignals(): { release(): Promise<void> } {
  let caught: NodeJS.Signals | null = null;
  const record = (sig: NodeJS.Signals): void => {
    caught ??= sig;
  };
  for (const s of SIGNALS) process.on(s, record);
  return {
    async release(): Promise<void> {
      // a signal that came while the commit ran synchronously waits in libuv's signal pipe, read in the loop's poll
      // phase: the first immediate may run in the check phase of the iteration now running (no poll before it), the
      // second runs after a poll phase, which has delivered the signal to `record`
      for (let turn = 0; turn < 2; turn++) await new Promise<void>((done) => setImmediate(done));
      for (const s of SIGNALS) process.removeListener(s, record);
      // a listener of the program's own got the signal as it came: only the default action (and the cleanups) waited
      if (caught !== null && signalUnclaimed(caught)) process.kill(process.pid, caught);
    },
  };
}

/** The file system calls a commit makes (node:fs's; a test gives failing ones: CommitHooks.fs). */
export interface CommitFs {
  readonly linkSync: (existing: string, link: string) => void;
  readonly lstatSync: (path: string, opts: { throwIfNoEntry: false }) => unknown;
  readonly renameSync: (from: string, to: string) => void;
  readonly rmSync: (path: string, opts: { force: true }) => void;
}

const NODE_FS: CommitFs = { linkSync, lstatSync, renameSync, rmSync };

/** Whether `path` exists (as itself: a link is not followed). */
function exists(fs: CommitFs, path: string): boolean {
  return fs.lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** Throws unless `path` is gone (or cannot be seen): for attempt, which tells whether it threw. */
function gone(fs: CommitFs, path: string): void {
  if (exists(fs, path)) throw new Error(`${path} is still there`);
}

/** Runs a clean-up step, best effort: whether it succeeded (its error is dropped; the commit's error is the one). */
function attempt(step: () => void): boolean {
  try {
    step();
    return true;
  } catch {
    return false;
  }
}

/**
 * The file a target held before the commit, kept aside under a hidden name until the commit ends: a hard link (so the
 * target's name never goes missing), or the file itself renamed aside where the file system takes no link.
 */
function keepAside(fs: CommitFs, file: string): { aside: string; linked: boolean } {
  const aside = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.old`);
  try {
    fs.linkSync(file, aside);
    return { aside, linked: true };
  } catch {
    fs.renameSync(file, aside);
    return { aside, linked: false };
  }
}

/** A target the commit has touched: `aside` holds what it held before (keepAside), null for a target it created. */
interface Touched {
  readonly file: string;
  readonly aside: string | null;
}

/**
 * Puts the targets touched so far back as they were, each step best effort (a directory made read-only or removed in
 * between takes none): returns the targets that could not be put back, in the order of the commit. The old file is
 * renamed back over the new one; a hidden name still there after (a rename that failed, or one of a file onto another
 * link of itself, which POSIX makes do nothing) is removed by the caller.
 */
function rollBack(fs: CommitFs, touched: readonly Touched[]): string[] {
  const unrestored: string[] = [];
  for (const d of [...touched].reverse()) {
    const { file, aside } = d;
    if (!attempt(() => (aside === null ? fs.rmSync(file, { force: true }) : fs.renameSync(aside, file))))
      unrestored.unshift(file);
  }
  return unrestored;
}

/** The first few of `files` by name (one line each), for a message: "a, b, c and 4 more". */
export function someNames(files: readonly string[]): string {
  const shown = files.slice(0, 3).map((f) => oneLine(basename(f)));
  return shown.join(", ") + (files.length > 3 ? ` and ${files.length - 3} more` : "");
}

/**
 * The commit's error (`hooks.onError`'s), told what the undo left: the targets that could not be put back, the
 * hidden files (kept aside, temporary) that could not be removed. A CommplanError keeps one line.
 */
function withLeftovers(err: unknown, unrestored: readonly string[], hidden: readonly string[]): unknown {
  if (!isCommplanError(err) || unrestored.length + hidden.length === 0) return err;
  let text = err.message;
  if (unrestored.length > 0)
    text += `; the renames before it could not all be undone: ${someNames(unrestored)} not restored`;
  const n = hidden.length;
  if (n > 0) text += `; ${n} hidden file${n === 1 ? "" : "s"} left beside them: ${someNames(hidden)}`;
  return new CommplanError(err.code, text, err.place, err.module);
}

/** What commitRenames does besides the renames. */
export interface CommitHooks {
  /** The error to throw for a rename that failed (`s`), given the file system's. */
  readonly onError: (e: unknown, s: StagedRename) => unknown;
  /**
   * Called once the renames are done or undone, before a held signal is acted on: the temporary files are then
   * renamed or removed, so their interrupt cleanup (trackTemp) is dropped here, lest it take the signal raised again
   * and go away before it is delivered.
   */
  readonly settle: () => void;
  /** The file system calls to make: node:fs's unless given (a test's, to fail them). */
  readonly fs?: CommitFs;
}

/**
 * Renames each staged file onto its target, all or none. A single file is one atomic rename. For several, each
 * target that exists is first kept aside (keepAside), so that when a rename fails the ones done are undone (the new
 * files removed, the old ones put back, the temporary files not yet renamed removed) and `hooks.onError` makes the
 * error thrown. The undo is best effort: a directory made read-only or removed in between takes none of it, and the
 * error then also names what it left (withLeftovers). The files kept aside are removed once all renames are done.
 * SIGINT, SIGTERM and SIGHUP are held off while the renames run and acted on after `hooks.settle` (holdSignals): an
 * interrupt leaves the targets all old (before the commit) or all new, never a mix. The renames are synchronous: a
 * commit is a few system calls a file.
 */
export async function commitRenames(staged: readonly StagedRename[], hooks: CommitHooks): Promise<void> {
  const fs = hooks.fs ?? NODE_FS;
  const held = holdSignals();
  const touched: Touched[] = [];
  try {
    for (const [k, s] of staged.entries()) {
      let kept: { aside: string; linked: boolean } | null = null;
      try {
        if (staged.length > 1 && exists(fs, s.file)) kept = keepAside(fs, s.file);
        fs.renameSync(s.tmp, s.file);
      } catch (e) {
        // a target kept aside by a link still holds its old file (its rename failed): only the link is to go;
        // one renamed aside is renamed back
        const link = kept?.linked ? kept.aside : null;
        if (kept && link === null) touched.push({ file: s.file, aside: kept.aside });
        const unrestored = rollBack(fs, touched);
        const hidden = touched.flatMap((d) => (d.aside === null ? [] : [d.aside])); // the old files first
        if (link !== null) hidden.push(link);
        hidden.push(...staged.slice(k).map((t) => t.tmp));
        for (const f of hidden) attempt(() => fs.rmSync(f, { force: true }));
        const left = hidden.filter((f) => !attempt(() => gone(fs, f)));
        throw withLeftovers(hooks.onError(e, s), unrestored, left);
      }
      touched.push({ file: s.file, aside: kept && kept.aside });
    }
    // the commit is done: a file kept aside that cannot be removed now stays (hidden), the targets are all new
    for (const d of touched) if (d.aside !== null) attempt(() => fs.rmSync(d.aside!, { force: true }));
  } finally {
    hooks.settle();
    await held.release();
  }
}
