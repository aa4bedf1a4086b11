/**
 * The commit of a command's finished outputs: staged temporary files renamed onto their targets, all or none, also
 * when the process is interrupted (SIGINT, SIGTERM, SIGHUP) while it runs.
 */
import { linkSync, lstatSync, renameSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
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

/** Whether `path` exists (as itself: a link is not followed). */
function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * The file a target held before the commit, kept aside under a hidden name until the commit ends: a hard link (so the
 * target's name never goes missing), or the file itself renamed aside where the file system takes no link.
 */
function keepAside(file: string): string {
  const aside = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.old`);
  try {
    linkSync(file, aside);
  } catch {
    renameSync(file, aside);
  }
  return aside;
}

/** Puts the targets renamed so far back as they were (best effort: the first error is the one reported). */
function rollBack(done: readonly { file: string; aside: string | null }[]): void {
  for (const d of [...done].reverse()) {
    try {
      if (d.aside === null) rmSync(d.file, { force: true });
      else renameSync(d.aside, d.file);
    } catch {
      // the directory went away or became read-only: nothing more can be restored
    }
  }
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
}

/**
 * Renames each staged file onto its target, all or none. A single file is one atomic rename. For several, each
 * target that exists is first kept aside (keepAside), so that when a rename fails the ones done are undone (the new
 * files removed, the old ones put back, the temporary files not yet renamed removed) and `hooks.onError` makes the
 * error thrown; the files kept aside are removed once all renames are done. SIGINT, SIGTERM and SIGHUP are held off
 * while the renames run and acted on after `hooks.settle` (holdSignals): an interrupt leaves the targets all old
 * (before the commit) or all new, never a mix. The renames are synchronous: a commit is a few system calls a file.
 */
export async function commitRenames(staged: readonly StagedRename[], hooks: CommitHooks): Promise<void> {
  const held = holdSignals();
  const done: { file: string; aside: string | null }[] = [];
  try {
    for (const [k, s] of staged.entries()) {
      let aside: string | null = null;
      try {
        if (staged.length > 1 && exists(s.file)) aside = keepAside(s.file);
        renameSync(s.tmp, s.file);
      } catch (e) {
        if (aside !== null) done.push({ file: s.file, aside });
        rollBack(done);
        for (const t of staged.slice(k)) rmSync(t.tmp, { force: true });
        throw hooks.onError(e, s);
      }
      done.push({ file: s.file, aside });
    }
    for (const d of done) if (d.aside !== null) rmSync(d.aside, { force: true });
  } finally {
    hooks.settle();
    await held.release();
  }
}
