/**
 * The commander program of the commplan command line: one sub-command per file under commands/, loaded for the command
 * a run names; its usage errors as one line. main.ts imports it for every run but `store get --id`.
 */
import { Command, Help, type Option } from "commander";
import { defaultMemoryBudget } from "../host/memory.js";
import { memoryOption, memoryOptionHelp } from "./memory-option.js";
import type { CliContext } from "./context.js";
import { VERSION } from "./version.js";
import { didYouMean } from "../internal/did-you-mean.js";
import { quoted } from "../internal/quoted.js";
import { isSubCommand, subCommandError } from "./sub-command.js";
import { collect } from "./repeatable.js";

export { CommanderError } from "commander";

/** A sub-command module's registration: adds its command(s) to the program. */
type Register = (program: Command, ctx: CliContext) => void;

/**
 * The sub-commands by module, in --help order: the names each registers and how to load it. A
 * run imports only the module of the command it runs (every module for --help, --version or an
 * unknown command), so `commplan stats` does not load the planners, the exports or Arrow: a
 * command loads less of the CLI's 250 modules and starts sooner (docs/architecture.md, "Why some hot code looks
 * as it does", has the figures).
 */
const COMMANDS: readonly (readonly [readonly string[], () => Promise<Register>])[] = [
  [["demo"], async () => (await import("./commands/demo.js")).registerDemo],
  [["gen"], async () => (await import("./commands/gen.js")).registerGen],
  [["stats"], async () => (await import("./commands/stats.js")).registerStats],
  [["plan"], async () => (await import("./commands/plan.js")).registerPlan],
  [["verify"], async () => (await import("./commands/verify.js")).registerVerify],
  [["cost"], async () => (await import("./commands/cost.js")).registerCost],
  [["show"], async () => (await import("./commands/show.js")).registerShow],
  [["simulate"], async () => (await import("./commands/simulate.js")).registerSimulate],
  [["algorithms", "machines", "patterns"], async () => (await import("./commands/lists.js")).registerLists],
  [["te-table"], async () => (await import("./commands/te-table.js")).registerTeTable],
  [["export"], async () => (await import("./commands/export.js")).registerExport],
  [["verify-program"], async () => (await import("./commands/verify-program.js")).registerVerifyProgram],
  [["check-planner"], async () => (await import("./commands/check-planner.js")).registerCheckPlanner],
  [["topologies", "platform"], async () => (await import("./commands/topologies.js")).registerTopologies],
  [["compare"], async () => (await import("./commands/compare.js")).registerCompare],
  [["store"], async () => (await import("./commands/store.js")).registerStore],
  [["precompute"], async () => (await import("./commands/precompute.js")).registerPrecompute],
];

/**
 * A commander usage error as one line under the name of the command it is about (`gen: unknown option '--x' (did you
 * mean --y?) (add --help for usage)`; `commplan: ...` for the program's own), as commplan's own errors are: without
 * commander's "error: ", its "(Did you mean ...)" lowercase and its choice errors as the other value errors are.
 */
export function usageLine(text: string, command = "commplan"): string {
  const line = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ")
    .replace(/^error: /, "")
    .replace(/\(Did you mean /g, "(did you mean ");
  return `${command}: ${choiceError(line)}${noOutputOption(line, command)} (add --help for usage)\n`;
}

/** The commands whose result is not what they print on stdout. */
const NO_STDOUT_RESULT: ReadonlySet<string> = new Set(["commplan", "store", "store add", "precompute"]);

/**
 * What to do instead of -o on a command that has none (every command with an output file takes -o): its result is
 * printed on stdout, which a shell redirects to a file (not for the program, the store group, or the commands whose
 * result goes into a plan store: precompute prints nothing on stdout, store add the entry's id).
 */
function noOutputOption(line: string, command: string): string {
  return /^unknown option '(-o|--output)'/.test(line) && !NO_STDOUT_RESULT.has(command)
    ? `: ${command} prints its result on stdout; redirect it to a file (> FILE)`
    : "";
}

/**
 * Commander's "option '--mode <mode>' argument 'nb' is invalid. Allowed choices are blocking, nonblocking." as the
 * other value errors of the CLI write one: the value, the nearest choice and the choices (`unknown value 'nb' (did you
 * mean nonblocking?); known: blocking, nonblocking`), and any sentence the option's own parser added after them.
 */
function choiceError(line: string): string {
  const m = /^option '(.+?)' argument '(.*)' is invalid\. Allowed choices are (.+?)\.(?: (.*))?$/.exec(line);
  if (m === null) return line;
  const [, flags, value, list, more] = m as unknown as [string, string, string, string, string | undefined];
  const choices = list.split(", ");
  const known = `${didYouMean(value, choices)}; known: ${choices.join(", ")}`;
  return `option '${flags}': unknown value ${quoted(value)}${known}${more === undefined ? "" : `. ${more}`}`;
}

/**
 * Builds the commander program for one run: the command `argv` names when it names one (the first
 * argument), none for --version, else every command (help, a mistyped name that commander
 * suggests from).
 */
export async function buildProgram(ctx: CliContext, argv: readonly string[] = []): Promise<Command> {
  const program = new Command();
  program
    .name("commplan")
    .description(
      "Plan, prove and replay communication schedules for parallel machines.\nExit codes: 0 ok, 1 a check failed, 2 bad input or usage, 70 an internal error (a bug: please report it).\nA reader that closes stdout early (| head) ends a command quietly, exit 0.",
    )
    .version(VERSION)
    .configureHelp({ optionDescription: requiredMarked }) // inherited by every sub-command
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.out(s),
      writeErr: (s) => ctx.io.err(s),
      outputError: (s, write) => write(usageLine(s)),
    });
  const first = argv[0] ?? "";
  const named = COMMANDS.filter(([names]) => names.includes(first));
  const version = first === "--version" || first === "-V";
  for (const [, load] of version ? [] : named.length > 0 ? named : COMMANDS) (await load())(program, ctx);
  refuseHelpOfUnknown(program, argv);
  // an error names the command the run names (exit-code.ts, inputErrorLine), also one thrown as its arguments are
  // read (gen's pattern name), before any hook; the first hook sets the command that runs
  const runs = commandOf(program, argv);
  if (runs !== undefined) ctx.command = pathName(runs);
  program.hook("preAction", (_program, action) => {
    ctx.command = pathName(action);
  });
  checkRequiredAfterUnknown(program);
  addMemoryOption(program, ctx);
  showLetterFlags(program);
  refuseBothSpellings(program, expandLetterFlags(program, argv), argv);
  refuseRepeated(program);
  return program;
}

/**
 * Refuses an option given twice with different values (`gen -p 8 -p 16`: commander keeps the later silently), under
 * one spelling or a letter and its long flag (`-p 8 --p 16`), in one line naming it and both values, before its
 * action runs (both long spellings, `--p 8 --ranks 16`, are refuseBothSpellings' "cannot be used with"). An option
 * meant to repeat (its parser collects, `--param`) or a variadic one is not checked; one given twice with the same
 * value runs as given once.
 */
function refuseRepeated(program: Command): void {
  // this run's values of each option, in order (undefined: a flag without one): built per run, not shared
  const given = new Map<Option, (string | undefined)[]>();
  for (const c of program.commands.flatMap((top) => [top, ...top.commands]))
    for (const option of c.options) {
      if (option.variadic || option.parseArg === collect) continue;
      c.on(`option:${option.name()}`, (value: string | undefined) => {
        given.set(option, [...(given.get(option) ?? []), value]);
      });
    }
  program.hook("preAction", (_program, action) => {
    const letters = new Map([...letterFlags(action)].map(([letter, o]) => [o, letter]));
    for (const option of action.options) {
      const values = given.get(option) ?? [];
      const at = values.findIndex((v) => v !== values[0]);
      if (at < 0) continue;
      const [first, other] = [values[0], values[at]];
      const flags = (shownFlags(option, letters.get(option)) ?? option.flags).replace(/ [<[].*$/, "");
      const both = first === undefined || other === undefined ? "" : ` (${plain(first)} and ${plain(other)})`;
      action.error(`error: ${flags} given twice${both}`, { code: "commander.conflictingOption" });
    }
  });
}

/**
 * `help NAME` of a command that does not exist: one usage line naming it, with a suggestion, as `commplan NAME` gives
 * (commander printed the whole program's help on stderr, which did not say what was wrong). So is the help of a
 * sub-command that does not exist (`help store bogus`, which main runs as `store bogus --help`; commander printed
 * store's help, exit 0): the line `store bogus` gives, exit 2.
 */
function refuseHelpOfUnknown(program: Command, argv: readonly string[]): void {
  const name = argv[1];
  if (name === undefined || name.startsWith("-")) return;
  const parent = program.commands.find((c) => c.name() === argv[0]);
  const asksHelp = argv.includes("--help") || argv.includes("-h");
  if (parent !== undefined && parent.commands.length > 0 && asksHelp && !isSubCommand(parent, name))
    throw subCommandError(parent, name);
  if (argv[0] !== "help" || argv.length !== 2) return;
  const names = ["help", ...program.commands.flatMap((c) => [c.name(), ...c.aliases()])];
  if (!names.includes(name)) program.error(`error: unknown command ${quoted(name)}${didYouMean(name, names)}`);
}

/**
 * The short flag `-x` a command accepts for each option with a one-letter long flag `--x` (gen's and demo's `--p` for
 * the ranks, gen's `--d`, `--k`, `--l`, `--t`, te-table's `--n`, platform's `--p`), unless `-x` is already another
 * option's (or help's: `-h`, so gen's `--h` and te-table's `--h` are spelt long).
 */
function letterFlags(c: Command): Map<string, Option> {
  const taken = new Set(["-h", ...c.options.flatMap((o) => (o.short?.startsWith("--") === false ? [o.short] : []))]);
  const letters = new Map<string, Option>();
  for (const o of c.options) {
    const long = [o.short, o.long].find((f) => f !== undefined && /^--[A-Za-z]$/.test(f));
    if (o.hidden || long === undefined || taken.has(long.slice(1))) continue;
    letters.set(long.slice(1), o);
  }
  return letters;
}

/** The command (or sub-command, `store add`) that `argv` runs, if it names one. */
function commandOf(program: Command, argv: readonly string[]): Command | undefined {
  const top = program.commands.find((c) => c.name() === argv[0]);
  return top?.commands.find((c) => c.name() === argv[1]) ?? top;
}

/**
 * The run's arguments with each accepted one-letter short flag written as its long flag (`gen pattern1 -p 8` as
 * `gen pattern1 --p 8`; `-p8` as `--p=8`): commander takes one short flag per option and these options already have
 * two long ones. An argument that is the value of the option before it, and any after `--`, stays as it is.
 */
export function expandLetterFlags(program: Command, argv: readonly string[]): string[] {
  const c = commandOf(program, argv);
  if (c === undefined) return [...argv];
  const letters = letterFlags(c);
  const takesValue = new Set(
    c.options.flatMap((o) => (o.required || o.optional ? [o.short, o.long].filter((f) => f !== undefined) : [])),
  );
  const end = argv.indexOf("--");
  return argv.map((a, i) => {
    const m = /^-([A-Za-z])(.*)$/.exec(a);
    if (m === null || (end >= 0 && i > end) || takesValue.has(argv[i - 1] ?? "")) return a;
    const o = letters.get(`-${m[1]}`);
    if (o === undefined) return a;
    return m[2] === "" ? `--${m[1]}` : `--${m[1]}=${m[2]}`;
  });
}

/**
 * Writes each option's flags in help as a user types them: an accepted one-letter short flag first, the readable long
 * flag, and not the one-letter long flag it stands for (`-p, --ranks <n>`, not `-p, --p, --ranks <n>`; platform's
 * `-p, -P <n>`; te-table's `--h-over-n <list>`, as `-h` is help's). The one-letter long flag stays accepted, unshown.
 */
function showLetterFlags(program: Command): void {
  for (const c of program.commands.flatMap((top) => [top, ...top.commands])) {
    const shortOf = new Map([...letterFlags(c)].map(([letter, o]) => [o, letter]));
    if (!c.options.some((o) => [o.short, o.long].some(isOneLetterLong))) continue;
    c.configureHelp({
      ...c.configureHelp(),
      optionTerm(this: Help, option: Option): string {
        return shownFlags(option, shortOf.get(option)) ?? Help.prototype.optionTerm.call(this, option);
      },
    });
  }
}

/**
 * The flags of an option with a one-letter long flag as help and the refusal of a missing one write them: `letter`
 * (its accepted short flag, if any) and its other flags, value last (`-p, --ranks <n>`); null for any other option.
 */
function shownFlags(option: Option, letter: string | undefined): string | null {
  const given = [option.short, option.long].filter((f) => f !== undefined);
  const flags = given.filter((f) => !isOneLetterLong(f));
  if (flags.length === given.length) return null;
  const value = option.flags.replace(/^[^<[]*/, "");
  return [...(letter === undefined ? [] : [letter]), ...flags].join(", ") + (value === "" ? "" : ` ${value}`);
}

/** True for a one-letter long flag (`--p`, gen's `--d`, te-table's `--n`): a legacy spelling, accepted but unshown. */
function isOneLetterLong(flag: string | undefined): boolean {
  return flag !== undefined && /^--[A-Za-z]$/.test(flag);
}

/**
 * An option's help text, with "(required)" after it for an option that must be given (commander does not mark them).
 */
function requiredMarked(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  return option.mandatory || REQUIRED.has(option) ? `${text} (required)` : text;
}

/** The options that must be given, checked before the action runs (after commander has named any unknown option). */
const REQUIRED = new WeakSet<Option>();

/**
 * Makes a mistyped option the error a run reports, not a required option it masks: commander checks required options
 * before unknown ones, so each required option is checked here, before the action, with commander's wording.
 */
function checkRequiredAfterUnknown(program: Command): void {
  for (const c of program.commands.flatMap((top) => [top, ...top.commands])) {
    for (const option of c.options)
      if (option.mandatory) {
        option.mandatory = false;
        REQUIRED.add(option);
      }
    c.configureOutput({ outputError: (text, write) => write(usageLine(usageErrorText(c, text), pathName(c))) });
  }
  program.hook("preAction", (_program, action) => {
    const missing = missingRequired(action);
    if (missing !== undefined) action.error(missing, { code: "commander.missingMandatoryOptionValue" });
  });
}

/**
 * Refuses an option given by both its spellings (`--p 8 --ranks 16`: commander keeps the later silently), as a
 * camelCase alias beside its kebab-case flag is refused (gen's `.conflicts`): every option declared with two long
 * flags (`--p, --ranks <n>`, `--n, --nodes <list>`) is checked against the run's arguments before its action. The
 * message names each flag as `typed` gives it (`-p` stays `-p`), where `argv` has the one-letter flags written long.
 */
function refuseBothSpellings(program: Command, argv: readonly string[], typed: readonly string[]): void {
  const end = argv.indexOf("--");
  const args = end < 0 ? argv : argv.slice(0, end);
  const at = (flag: string): number => args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  // the flag as the user typed it: `-p` (or `-p8`) where expandLetterFlags wrote `--p` (argv is typed, word for word)
  const asTyped = (flag: string, i: number): string => (typed[i]?.startsWith("--") === false ? flag.slice(1) : flag);
  program.hook("preAction", (_program, action) => {
    for (const option of action.options) {
      const [a, b] = [option.short, option.long];
      if (a === undefined || b === undefined || !a.startsWith("--")) continue;
      const [ia, ib] = [at(a), at(b)];
      if (ia < 0 || ib < 0) continue;
      const value = option.flags.replace(/^[^<[]*/, "");
      const spelt = (flag: string): string => `'${flag}${value === "" ? "" : ` ${value}`}'`;
      const [first, later] = ia < ib ? [asTyped(a, ia), asTyped(b, ib)] : [asTyped(b, ib), asTyped(a, ia)];
      action.error(`error: option ${spelt(later)} cannot be used with option ${spelt(first)}`, {
        code: "commander.conflictingOption",
      });
    }
  });
}

/** A value as an error line shows it: as typed when it is a plain word or number (`8`), else quoted and escaped. */
function plain(value: string): string {
  return /^[\w.,:=/+@%-]{1,200}$/.test(value) ? value : quoted(value);
}

/** Commander's message for the first required option of `c` not given, if any. */
function missingRequired(c: Command): string | undefined {
  const option = c.options.find((o) => REQUIRED.has(o) && c.getOptionValue(o.attributeName()) === undefined);
  if (option === undefined) return undefined;
  const letter = [...letterFlags(c)].find(([, o]) => o === option)?.[0];
  return `error: required option '${shownFlags(option, letter) ?? option.flags}' not specified`;
}

/**
 * Commander's error `text` for `c` as the run reports it: a missing required option before a missing argument (as
 * commander orders them).
 */
function usageErrorText(c: Command, text: string): string {
  return text.startsWith("error: missing required argument") ? (missingRequired(c) ?? text) : text;
}

/**
 * The sub-commands that read or make an input whose memory is estimated up front (a matrix, a
 * schedule, a program, a network): they take --max-memory, which the refusal names. A store
 * sub-command is named with its parent ("store add").
 */
const BUDGETED = new Set([
  "gen",
  "stats",
  "plan",
  "verify",
  "cost",
  "show",
  "simulate",
  "export",
  "verify-program",
  "platform",
  "compare",
  "store add",
  "store get",
  "store list",
  "store verify",
  "store gc",
  "precompute",
  "check-planner",
]);

/** A command's name as BUDGETED lists it: with its parent's for a sub-command of a sub-command. */
function pathName(c: Command): string {
  const parent = c.parent;
  return parent !== null && parent.parent !== null ? `${parent.name()} ${c.name()}` : c.name();
}

/**
 * Adds --max-memory to every sub-command that reads a file, and sets the run's budget
 * (ctx.maxMemory) before its action runs; says so when a command is about to wait for a terminal's input.
 */
function addMemoryOption(program: Command, ctx: CliContext): void {
  const io = ctx.io;
  for (const c of program.commands.flatMap((top) => [top, ...top.commands])) {
    if (BUDGETED.has(pathName(c))) c.option("--max-memory <size>", memoryOptionHelp(pathName(c)));
  }
  program.hook("preAction", (_program, action) => {
    const v = action.opts()["maxMemory"] as string | undefined;
    ctx.maxMemory = v === undefined ? defaultMemoryBudget() : memoryOption(v);
    const readsStdin = BUDGETED.has(pathName(action)) && (action.args.includes("-") || action.opts()["matrix"] === "-");
    if (readsStdin && io.stdinIsTerminal) io.err("commplan: reading standard input (end with Ctrl-D)\n");
  });
}
