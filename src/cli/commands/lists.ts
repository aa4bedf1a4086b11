/** commplan algorithms | machines | patterns: what is available, with sources. */
import { Option, type Command } from "commander";
import { MACHINES } from "../../machines/presets.js";
import { runtimeModelsFor } from "../../machines/runtime/runtime-model.js";
import { machineRecord } from "../../model/machine.js";
import { PATTERNS, patternOptionList, type PatternDef } from "../../patterns/index.js";
import { inputParams } from "../../planner/plan-params.js";
import { DEFAULT_SPLIT_MACHINE } from "../../planner/permutation/index.js";
import { PLANNERS, plannerUsesMachine } from "../../planner/registry.js";
import type { InputParam, Planner } from "../../planner/types.js";
import type { CliContext } from "../context.js";
import { collect, ELEMENT_BYTES_HELP, fmt, table } from "../io.js";
import { patternFlag } from "../pattern-flags.js";

/** One `--param` line of `commplan algorithms`: name=values (range, unit; default): description. */
function paramLine(d: InputParam): string {
  const number = d.type === "integer" || d.type === "number" ? [`<${d.type}>`] : [];
  const syntax = d.type === "boolean" ? "true|false" : [...(d.values ?? []), ...number].join("|");
  const range =
    d.min !== undefined && d.max !== undefined
      ? `${d.min}..${d.max}`
      : d.min !== undefined
        ? `>= ${d.min}`
        : d.max !== undefined
          ? `<= ${d.max}`
          : undefined;
  const notes = [range, d.unit].filter((x) => x !== undefined).join(", ");
  const dflt = d.default !== undefined ? `default ${String(d.default)}` : `by default ${d.derived ?? "unset"}`;
  return `    --param ${d.name}=${syntax} (${notes ? `${notes}; ` : ""}${dflt}): ${d.description}\n`;
}

/**
 * The machine a planner's cost model uses when `plan` gets no --machine, or null for planners that use
 * no machine: those that write `machine` into the header (rs-nh's cutoff auto, split-coloring) fall back
 * to DEFAULT_SPLIT_MACHINE.
 */
export function defaultPlanMachine(p: Pick<Planner, "params">): string | null {
  return plannerUsesMachine(p) ? DEFAULT_SPLIT_MACHINE.name : null;
}

/** `--param key=value`, repeatable, as plan and store add / get take it ('commplan algorithms' lists the keys). */
export function paramOption(): Option {
  return new Option(
    "--param <key=value>",
    "algorithm parameter (repeatable); 'commplan algorithms' lists each algorithm's parameters",
  )
    .argParser(collect)
    .default([], "none");
}

/** The help of the request options whose wording plan and store add / get word each their own way. */
export interface RequestOptionHelp {
  readonly machine: string;
  readonly payload: string;
  readonly seed: string;
}

/**
 * The options that say what to plan, in this order, as plan and store add / get take them: `--machine <name>`,
 * `--payload`, `--seed <s>` (default 1), `--param` (paramOption) and `--element-bytes <n>`.
 */
export function planRequestOptions(c: Command, help: RequestOptionHelp): Command {
  return c
    .option("--machine <name>", help.machine)
    .option("--payload", help.payload)
    .option("--seed <s>", help.seed, "1")
    .addOption(paramOption())
    .option("--element-bytes <n>", ELEMENT_BYTES_HELP);
}

/** `plan --help`'s line for --machine: which planners use it and what they plan for without it. */
export function machineOptionHelp(): string {
  const users = PLANNERS.filter((p) => defaultPlanMachine(p) !== null)
    .map((p) => p.name)
    .join(", ");
  return `machine model of the planners with a cost model (${users}), which plan for ${DEFAULT_SPLIT_MACHINE.name} without it; the others accept and ignore it ('commplan machines' lists the models)`;
}

/** An algorithm's entry in `commplan algorithms`: its line, then its parameters and the header keys it writes. */
function algorithmEntry(p: Planner): string {
  let text = `${p.name}: ${p.title} [${p.source}]\n`;
  const inputs = inputParams(p.params),
    outputs = p.params.filter((d) => d.output === true);
  for (const d of inputs) text += paramLine(d);
  if (inputs.length === 0) text += "    (no parameters)\n";
  const machine = defaultPlanMachine(p);
  if (machine !== null)
    text += `    machine: its cost model plans for ${machine} unless 'plan --machine NAME' names another ('commplan machines' lists them); the header's params.machine says which\n`;
  if (outputs.length > 0)
    text += `    writes into the header's params (accepted and ignored as --param): ${outputs.map((d) => d.name).join(", ")}\n`;
  return text;
}

/**
 * A pattern's entry in `commplan patterns --json`: its fields, options as a list of { name, description, default, min,
 * max, integer }.
 */
function patternJson(p: PatternDef): object {
  const options = patternOptionList(p).map((x) => ({
    name: x.name,
    description: x.description,
    default: x.default,
    min: x.min,
    ...(x.max !== undefined ? { max: x.max } : {}),
    ...(x.unit !== undefined ? { unit: x.unit } : {}),
    integer: x.type === "integer",
  }));
  return {
    name: p.name,
    title: p.title,
    source: p.source,
    options,
    ...(p.fixedP !== undefined ? { fixedP: p.fixedP } : {}),
    ...(p.file !== undefined ? { file: p.file } : {}),
  };
}

/** Registers the three listing commands. */
export function registerLists(program: Command, ctx: CliContext): void {
  program
    .command("algorithms")
    .description(
      "list the planning algorithms with their sources, their parameters (--param name=value of 'commplan plan') and, for those with a cost model, the machine they plan for by default",
    )
    .option("--json", "machine-readable output")
    .action((o: { json?: boolean }) => {
      if (o.json)
        return ctx.io.out(
          JSON.stringify(
            PLANNERS.map(({ plan: _p, specs: _s, ...rest }) => {
              const machine = defaultPlanMachine(rest);
              return machine === null ? rest : { ...rest, defaultMachine: machine };
            }),
            null,
            2,
          ) + "\n",
        );
      ctx.io.out(PLANNERS.map(algorithmEntry).join(""));
    });
  program
    .command("machines")
    .description(
      "list the machine models (start-up T_s, per-byte t_c, t_d, t_m in microseconds, ports, the simulator's default topology) with their sources",
    )
    .option("--json", "machine-readable output")
    .action((o: { json?: boolean }) => {
      if (o.json)
        return ctx.io.out(
          JSON.stringify(
            MACHINES.map((m) => ({ ...machineRecord(m), runtimes: runtimeModelsFor(m) })),
            null,
            2,
          ) + "\n",
        );
      ctx.io.out(
        table(
          [
            ["name", "T_s", "t_c", "t_d", "t_m", "ports", "topology", "source"],
            ...MACHINES.map((m) => [
              m.name,
              fmt(m.ts),
              fmt(m.tc),
              fmt(m.td),
              fmt(m.tm),
              String(m.ports),
              m.fabric ?? "flat",
              m.source,
            ]),
          ],
          ctx.io.stdoutColumns,
        ),
      );
    });
  program
    .command("patterns")
    .description("list the matrix patterns of 'commplan gen' with their options and sources")
    .option("--json", "machine-readable output")
    .action((o: { json?: boolean }) => {
      if (o.json) return ctx.io.out(JSON.stringify(PATTERNS.map(patternJson), null, 2) + "\n");
      let text = "";
      for (const p of PATTERNS) {
        text += `${p.name}${p.fixedP !== undefined ? ` (P = ${p.fixedP})` : ""}: ${p.title} [${p.source}]\n`;
        if (p.file !== undefined) text += `    --file <path> (required): ${p.file.description}\n`;
        for (const x of patternOptionList(p))
          text += `    ${x.name.length === 1 ? `--${x.name}, ` : ""}--${patternFlag(x.name)} (default ${x.default}${x.type === "integer" ? ", integer" : ""}, >= ${x.min}${x.max !== undefined ? `, <= ${x.max}` : ""}${x.unit !== undefined ? `, ${x.unit}` : ""}): ${x.description}\n`;
      }
      ctx.io.out(text);
    });
}
