/**
 * Cleanups that must run when the process ends early: on SIGINT, SIGTERM or SIGHUP, and on exit.
 * One watcher serves every user (file-output's temporary files, check-planner's process groups), so
 * their signal handlers need not find each other.
 */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const cleanups = new Set<() => void>();

/**
 * Last added first: a later cleanup may depend on what an earlier one removes (a process writing into a directory).
 * Each is best effort: one that throws (a temporary file in a directory made read-only meanwhile) neither stops the
 * others nor escapes a signal handler as a stack trace in place of the signal's own ending.
 */
function runCleanups(): void {
  for (const f of [...cleanups].reverse()) {
    try {
      f();
    } catch {
      // best effort: what it could not remove stays, as after a kill -9
    }
  }
}

/**
 * On a signal that would end the process (no listener but this one), runs the cleanups and raises
 * the signal again with the default action, so the process ends as it would have (exit 130 for
 * SIGINT, 143 for SIGTERM). With other listeners the signal is theirs: the cleanups wait for exit.
 */
function onSignal(sig: NodeJS.Signals): void {
  if (process.listenerCount(sig) > 1) return;
  runCleanups();
  cleanups.clear();
  unwatch();
  process.kill(process.pid, sig);
}

function watch(): void {
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on("exit", runCleanups);
}

function unwatch(): void {
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.removeListener("exit", runCleanups);
}

/** Runs `f` (once) if the process is interrupted or exits before `dropInterruptCleanup(f)`. */
export function addInterruptCleanup(f: () => void): void {
  if (cleanups.size === 0) watch();
  cleanups.add(f);
}

/** `f` is no longer needed (what it would clean up is gone). */
export function dropInterruptCleanup(f: () => void): void {
  if (!cleanups.delete(f)) return;
  if (cleanups.size === 0) unwatch();
}

/**
 * Whether `sig` has no listener but this module's watcher (if any): a signal raised again then ends the process (after
 * the cleanups); with another listener the signal is that listener's, which has had it already.
 */
export function signalUnclaimed(sig: NodeJS.Signals): boolean {
  return process.listenerCount(sig) <= (cleanups.size > 0 ? 1 : 0);
}
