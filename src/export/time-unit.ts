/** The time unit of a picture's axis (the Gantt chart's and the sweep chart's): us, ms or s. */

/** A time unit of an axis: its name and its length in us. */
export interface TimeUnit {
  readonly name: string;
  readonly us: number;
}

/** The axis unit for a span in us: us below 1 ms, ms below 1 s, else s. */
export function timeUnit(spanUs: number): TimeUnit {
  if (spanUs >= 1e6) return { name: "s", us: 1e6 };
  if (spanUs >= 1e3) return { name: "ms", us: 1e3 };
  return { name: "us", us: 1 };
}
