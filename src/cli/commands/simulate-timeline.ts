/**
 * simulate's timeline outputs, shared by the schedule replay, the protocol runs, --program and --library: the SVG
 * Gantt chart (--svg, --svg-view) and the Chrome trace (--trace).
 */
import type { OutputDocument } from "../../io/file-output.js";
import { MAX_SVG_INTERVALS, svgDraws, timelineToSvg, type GanttView } from "../../export/svg-gantt.js";
import { timelineToChromeTracePieces } from "../../export/trace-chrome.js";
import type { Timeline } from "../../model/timeline.js";
import { fail } from "../../model/errors.js";
import { refuseStdoutTarget } from "./json-summary.js";

/** The flags of the timeline's outputs. */
export interface TimelineFlags {
  readonly trace?: string;
  readonly svg?: string;
  readonly svgView?: GanttView;
}

/** Refuses a `flag` target that is stdout: stdout carries the simulation result (refuseStdoutTarget). */
export function refuseStdoutTaken(flag: string, field: string, target: string | undefined): void {
  const why = `stdout already carries the simulation result; write ${flag} to a file`;
  refuseStdoutTarget("simulate", flag, target, why, field);
}

/** Whether the flags ask for a timeline (--svg or --trace). */
export const wantsTimeline = (o: TimelineFlags): boolean => o.svg !== undefined || o.trace !== undefined;

/** The timeline flags' own rules, before anything is read: neither names stdout, and --svg-view goes with --svg. */
export function checkTimelineFlags(o: TimelineFlags): void {
  refuseStdoutTaken("--trace", "trace", o.trace);
  refuseStdoutTaken("--svg", "svg", o.svg);
  if (o.svg === undefined && o.svgView !== undefined)
    throw fail("simulate", "BAD_OPTION", "--svg-view goes with --svg", { field: "svgView" });
}

/** The one-line refusal of --svg for a timeline of `count` intervals (`least`: a lower bound known before the run). */
export function svgTooBig(svg: string, count: number, least: boolean): Error {
  return fail(
    "simulate",
    "BAD_INPUT",
    `the timeline has ${least ? "at least " : ""}${count} intervals; an SVG chart (--svg) draws at most ${MAX_SVG_INTERVALS} (use --trace, the Chrome trace, instead)`,
    { file: svg, field: "svg" },
  );
}

/**
 * The --svg and --trace documents of a timeline (none without those flags), each made as it is written; refuses an SVG
 * the chosen view cannot draw before anything is written.
 */
export function timelineDocuments(
  o: TimelineFlags,
  timeline: Timeline,
  makespan: number,
  machine: string,
  title: string,
  elementBytes?: number,
): OutputDocument[] {
  if (o.svg !== undefined && !svgDraws(timeline.count, timeline.p, o.svgView))
    throw svgTooBig(o.svg, timeline.count, false);
  const docs: OutputDocument[] = [];
  if (o.svg !== undefined)
    docs.push({
      target: o.svg,
      pieces: (function* () {
        yield timelineToSvg(timeline, makespan, {
          title,
          ...(o.svgView !== undefined ? { view: o.svgView } : {}),
          ...(elementBytes !== undefined ? { elementBytes } : {}),
        });
      })(),
    });
  if (o.trace !== undefined)
    docs.push({ target: o.trace, pieces: timelineToChromeTracePieces(timeline, { machine, makespan }) });
  return docs;
}
