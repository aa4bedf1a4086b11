/**
 * The export registry: every format of `commplan export` (what it reads, the options it takes, its writer) and the
 * options they share; adding a format is one module under formats/ and one line here.
 */
import { deepFreeze } from "../internal/deep-freeze.js";
import { fail } from "../model/errors.js";
import { arrowFormat } from "./formats/arrow.js";
import { goalFormat } from "./formats/goal.js";
import { mscclXmlFormat } from "./formats/msccl-xml.js";
import { programFormat } from "./formats/program.js";
import { simgridFormat } from "./formats/simgrid.js";
import type { ExportFormat, ExportOptionName } from "./types.js";
import { checkArg } from "../model/option-checks.js";

/** Every export format, in the order `--format` lists them. */
export const EXPORT_FORMATS: readonly ExportFormat[] = deepFreeze([
  programFormat,
  simgridFormat,
  goalFormat,
  arrowFormat,
  mscclXmlFormat,
]);

/**
 * How an option some formats take is declared: an optional title before the formats' uses and text after them, and
 * (`lacks`) whether a format without it refuses it; a command line gives each option its own flag.
 */
export interface ExportOptionSpec {
  readonly title?: string;
  readonly suffix?: string;
  /** When set, a format that does not take the option refuses it: "<format> <lacks>". */
  readonly lacks?: string;
}

/** The options only some formats take, in help order. */
export const EXPORT_OPTIONS: { readonly [name in ExportOptionName]: ExportOptionSpec } = {
  split: {},
  out: {},
  machine: { title: "machine preset", suffix: "; see 'commplan machines'", lacks: "takes no machine" },
  chunk: { lacks: "has no chunks" },
};

/** The format named `name` in `formats`, or undefined. */
export function exportFormat(
  name: string,
  formats: readonly ExportFormat[] = EXPORT_FORMATS,
): ExportFormat | undefined {
  checkArg(
    "export",
    "exportFormat",
    "name",
    name,
    typeof name === "string",
    "a format's name (a string)",
    "BAD_OPTION",
  );
  checkArg(
    "export",
    "exportFormat",
    "formats",
    formats,
    Array.isArray(formats),
    "an array of formats (EXPORT_FORMATS)",
    "BAD_OPTION",
  );
  return formats.find((f) => f.name === name);
}

/**
 * The help of an option: each format that takes it with what it means there ("simgrid: the platform"), after its title
 * when it has one.
 */
export function exportOptionHelp(name: ExportOptionName, formats: readonly ExportFormat[] = EXPORT_FORMATS): string {
  const spec = EXPORT_OPTIONS[name];
  const uses = formats.flatMap((f) => f.options.filter((u) => u.option === name).map((u) => `${f.name}: ${u.help}`));
  const listed = uses.join("; ");
  return spec.title === undefined ? `${listed}${spec.suffix ?? ""}` : `${spec.title} (${listed})${spec.suffix ?? ""}`;
}

/** The help of --matrix: every format reads it but those of the schedule itself. */
export function matrixOptionHelp(formats: readonly ExportFormat[] = EXPORT_FORMATS): string {
  const own = formats.filter((f) => f.input === "schedule").map((f) => f.name);
  const text = "the matrix the schedule was planned for";
  return own.length === 0 ? text : `${text} (every format but ${own.join(", ")})`;
}

/** Refuses an option given to a format that does not take it, for the options whose spec says so (`lacks`). */
export function refuseForeignOptions(
  format: ExportFormat,
  given: readonly ExportOptionName[],
  formats: readonly ExportFormat[] = EXPORT_FORMATS,
): void {
  for (const name of given) {
    const lacks = EXPORT_OPTIONS[name].lacks;
    if (lacks === undefined || format.options.some((u) => u.option === name)) continue;
    const users = formats.filter((f) => f.options.some((u) => u.option === name)).map((f) => f.name);
    throw fail(
      "export",
      "BAD_OPTION",
      `the option ${name} goes with format ${users.join(" or ")} (${format.name} ${lacks})`,
      {
        field: name,
      },
    );
  }
}
