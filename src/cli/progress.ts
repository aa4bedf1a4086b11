/**
 * The progress bar of long commands (simulate, compare, plan, export, verify): cli-progress on stderr, shown on a
 * terminal once the work has lasted a second.
 */
import cliProgress from "cli-progress";

/**
 * A cli-progress bar on `stream` in `format` that changes no mode of the terminal: cli-progress by default turns the
 * terminal's line wrapping off (ESC [?7l) and on again when the bar stops, so a run killed by Ctrl-C (SIGINT) left the
 * user's shell with long lines cut at the right edge. With wrapping left on, cli-progress cuts the bar's line to the
 * terminal's width itself.
 */
export function newBar(stream: NodeJS.WritableStream, format: string, total: number): cliProgress.SingleBar {
  const fit = fitLine(format, total, (stream as { columns?: number }).columns);
  return new cliProgress.SingleBar(
    { stream, format: fit.format, barsize: fit.barsize, linewrap: true },
    cliProgress.Presets.shades_classic,
  );
}

/** The widest and narrowest bar newBar draws (cli-progress draws 40 when told nothing). */
const BAR_MOST = 40;
const BAR_LEAST = 10;

/**
 * The bar's width that fits the line of `format` into a terminal of `columns` (80 when it says none, as cli-progress
 * takes it) less one column, so the cursor does not wrap: the rest of the line at its widest (100 %, a count of
 * `total`'s digits, an eta of five digits), between `least` (BAR_LEAST) and BAR_MOST (fitLine shortens the labels
 * of a line that does not fit). cli-progress cuts a line at the terminal's
 * width, so a line of the default 40-column bar was cut at 80 columns (precompute's ended in "eta").
 */
export function barSize(format: string, total: number, columns: number | undefined, least = BAR_LEAST): number {
  const count = String(Math.max(0, Math.floor(total)));
  const rest = format
    .replace("{bar}", "")
    .replace("{percentage}", "100")
    .replace("{value}", count)
    .replace("{total}", count)
    .replace("{eta}", "99999");
  const width = columns !== undefined && columns > 0 ? columns : 80;
  return Math.max(least, Math.min(BAR_MOST, width - 1 - rest.length));
}

/** The narrowest bar of a line whose labels are all shortened (fitLine), at any width of 40 columns or more. */
const BAR_SHORTEST = 3;

/**
 * The ways a line is shortened when even a BAR_LEAST bar leaves it too wide, in turn: the unit after the count, the
 * eta, the count, then the command's label to its first word ("plan: writing" to "plan").
 */
const SHORTER: readonly ((format: string) => string)[] = [
  (f) => f.replace(/(\{total\}) [A-Za-z]+/, "$1"),
  (f) => f.replace(" | eta {eta}s", ""),
  (f) => f.replace(" | {value}/{total}", ""),
  (f) => f.replace(/^([^:[]*):[^[]*\[/, "$1 ["),
];

/**
 * The format and bar width of a line that fits a terminal of `columns` (as barSize counts it): the bar shortened
 * first, down to BAR_LEAST, then the labels (SHORTER), and with every label shortened the bar again, down to
 * BAR_SHORTEST. A 60-column terminal and a count of 8 digits made writing's line 61 columns, which cli-progress cut.
 */
export function fitLine(
  format: string,
  total: number,
  columns: number | undefined,
): { readonly format: string; readonly barsize: number } {
  let f = format;
  for (const shorter of [(x: string) => x, ...SHORTER]) {
    f = shorter(f);
    const size = barSize(f, total, columns, 0);
    if (size >= BAR_LEAST) return { format: f, barsize: size };
  }
  return { format: f, barsize: Math.max(BAR_SHORTEST, barSize(f, total, columns, 0)) };
}

/**
 * Narrows `bar` (made by newBar) to fit a new `total` whose count takes more digits than the one it was sized for: a
 * line sized for "9/9" overflowed, and was cut, at "99999999/99999999". Never widened (cli-progress draws the bar from
 * strings of its first width).
 */
function fitBar(bar: cliProgress.SingleBar, stream: NodeJS.WritableStream, total: number): void {
  const options = (bar as unknown as { options: { barsize: number; format: string } }).options;
  const fit = fitLine(options.format, total, (stream as { columns?: number }).columns);
  options.format = fit.format;
  options.barsize = Math.min(options.barsize, fit.barsize);
}

/** What a long run reports to, and how its bar ends. */
export interface Progress {
  /** `done` of `total` units so far; a total that changes is taken as it comes. */
  readonly report: (done: number, total: number) => void;
  /** The run ended: the bar is completed to 100 %. */
  readonly finish: () => void;
  /** The run failed or was cut short: the bar stays where it is. */
  readonly stop: () => void;
}

/**
 * A progress reporter for `command`, counting `unit` (null: the percentage alone, for work counted in
 * a library's own units): no bar unless `interactive` (stderr is a TTY), and none for work that ends
 * within a second.
 */
export function progressBar(
  interactive: boolean,
  command: string,
  unit: string | null,
  stream: NodeJS.WritableStream = process.stderr,
  now: () => number = Date.now,
): Progress {
  const t0 = now();
  let bar: cliProgress.SingleBar | null = null;
  let all = 0;
  return {
    report: (done, total) => {
      if (!interactive) return;
      all = total;
      if (bar === null) {
        if (now() - t0 < 1000) return;
        bar = newBar(
          stream,
          `${command} [{bar}] {percentage}%${unit === null ? "" : ` | {value}/{total} ${unit}`}`,
          total,
        );
        bar.start(total, done);
      }
      if (bar.getTotal() !== total) {
        fitBar(bar, stream, total);
        bar.setTotal(total);
      }
      bar.update(done);
    },
    finish: () => {
      bar?.update(all);
      bar?.stop();
    },
    stop: () => bar?.stop(),
  };
}

/** Runs `f` with a progress reporter: the bar is completed when f returns, stopped where it is when f throws. */
export function withProgress<T>(
  interactive: boolean,
  command: string,
  unit: string | null,
  f: (report: (done: number, total: number) => void) => T,
): T {
  const progress = progressBar(interactive, command, unit);
  let ended = false;
  try {
    const r = f(progress.report);
    ended = true;
    return r;
  } finally {
    if (ended) progress.finish();
    else progress.stop();
  }
}

/**
 * withProgress for asynchronous work (writing files): the bar is completed when f's promise resolves, stopped where it
 * is when it rejects.
 */
export async function withProgressAsync<T>(
  interactive: boolean,
  command: string,
  unit: string | null,
  f: (report: (done: number, total: number) => void) => Promise<T>,
): Promise<T> {
  const progress = progressBar(interactive, command, unit);
  let ended = false;
  try {
    const r = await f(progress.report);
    ended = true;
    return r;
  } finally {
    if (ended) progress.finish();
    else progress.stop();
  }
}
