/** Test helpers of progress reporting: the contract of a run's calls, and a fake terminal for the CLI's bars. */
import { expect, vi } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

/** The progress contract: at least one call, one total, `done` within 0..total and never decreasing, the last call at the total. */
export function expectProgress(calls: readonly (readonly [number, number])[]): void {
  expect(calls.length).toBeGreaterThan(0);
  const total = calls[0]![1];
  let last = -Infinity;
  for (const [done, t] of calls) {
    expect(t).toBe(total);
    expect(done).toBeGreaterThanOrEqual(Math.max(0, last));
    expect(done).toBeLessThanOrEqual(total);
    last = done;
  }
  expect(last).toBe(total);
}

/** A progress callback that records its calls. */
export function recorder(): { calls: [number, number][]; progress: (done: number, total: number) => void } {
  const calls: [number, number][] = [];
  return { calls, progress: (done, total) => void calls.push([done, total]) };
}

/**
 * Runs `commplan ...argv` in process with stderr a fake terminal (isTTY, 100 columns; what the
 * progress bars write is captured as `tty`) and a clock that moves a second each time it is read, so
 * a bar shows however fast the work is. `io` sets `interactive` and `stdoutIsTerminal`, and `errOnTerminal` puts
 * the command's own stderr lines into `tty` as well (one terminal holding both).
 */
export async function runOnTerminal(
  io: Pick<CliIo, "interactive" | "stdoutIsTerminal"> & { errOnTerminal?: boolean },
  ...argv: string[]
): Promise<{ code: number; out: string; err: string; tty: string }> {
  let out = "",
    err = "",
    tty = "";
  const stderr = process.stderr as NodeJS.WriteStream;
  const was = { isTTY: stderr.isTTY, columns: stderr.columns };
  let clock = 0;
  const now = vi.spyOn(Date, "now").mockImplementation(() => (clock += 1000));
  const write = vi.spyOn(stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    tty += String(chunk);
    return true;
  });
  Object.assign(stderr, { isTTY: true, columns: 100 });
  try {
    const { errOnTerminal, ...flags } = io;
    // errOnTerminal: the command's messages land in `tty` too, in the order they and the bar were written
    const toErr = (t: string): void => {
      err += t;
      if (errOnTerminal === true) tty += t;
    };
    const cli: CliIo = { out: (t) => void (out += t), err: toErr, ...flags };
    const code = await main(argv, cli);
    return { code, out, err, tty };
  } finally {
    Object.assign(stderr, was);
    write.mockRestore();
    now.mockRestore();
  }
}
