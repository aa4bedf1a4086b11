/**
 * Mutants: small patches of the built JavaScript (a copy of dist/, never the product's own) that each bring back one
 * class of defect the fuzzer must find, with the surfaces whose cases reach it. makeMutantDist writes a mutant's copy.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A mutant: its name, the defect it brings back, the surfaces to fuzz, and its edits (find, replace) per file. */
export interface Mutant {
  readonly name: string;
  readonly defect: string;
  readonly surfaces: Readonly<Record<string, number>>;
  /** Each edit replaces its text, found `count` times (once unless said). */
  readonly edits: readonly {
    readonly file: string;
    readonly find: string;
    readonly replace: string;
    readonly count?: number;
  }[];
}

/** One mutant per defect class. */
export const MUTANTS: readonly Mutant[] = [
  {
    name: "store-id-path",
    defect: "store get --id reads outside the store (an id need not be 64 hex digits)",
    surfaces: { store: 1 },
    edits: [
      {
        file: "store/store-dir.js",
        find: "const ENTRY_ID = /^[0-9a-f]{64}$/;",
        replace: "const ENTRY_ID = /^[^\\0]+$/;",
      },
    ],
  },
  {
    name: "gc-follows-tmp-link",
    defect: "store gc follows a symbolic link at S/tmp and deletes files outside the store",
    surfaces: { store: 1 },
    edits: [
      {
        file: "store/plan-store.js",
        find: 'if (pathKind(tmpDir(s)) !== "directory")\n        return [];',
        replace: 'if (pathKind(tmpDir(s)) === "missing")\n        return [];',
      },
      {
        file: "store/plan-store.js",
        find: 'const tmp = partDamage(tmpDir(s), "directory", TMP_PART, false);',
        replace: "const tmp = null;",
      },
    ],
  },
  {
    name: "split-index-out",
    defect: "a split program index's files are read outside its directory ('..', absolute paths, links)",
    surfaces: { program: 1 },
    edits: [
      {
        file: "io/program-json-read.js",
        find: "function rankFilePath(index, f, k) {",
        replace: "function rankFilePath(index, f, k) {\n    if (f !== '') return join(dirname(index), f);",
      },
    ],
  },
  {
    name: "split-onto-input",
    defect: "export --split overwrites an input inside its directory (index.json, rank-0.json)",
    surfaces: { onto: 1 },
    edits: [
      {
        file: "cli/commands/export.js",
        find: 'await refuseSplitOntoInput("export", [file, o.matrix], o.split, m.p, "--split");',
        replace: "void 0;",
      },
    ],
  },
  {
    name: "get-onto-entry",
    defect: "store get -o <the entry's own file> destroys the entry",
    surfaces: { store: 1 },
    edits: [
      {
        file: "cli/commands/store-get.js",
        find: 'await refuseOutputOntoInput("store", [entryFile(s, id)], [["-o", o.output]]);',
        replace: "",
      },
    ],
  },
  {
    name: "store-opens-fifo",
    defect: "a FIFO in place of an entry hangs store verify (opened blocking)",
    surfaces: { store: 1 },
    edits: [
      {
        file: "store/store-fs.js",
        find: 'if (kind !== "file")\n        return { problem:',
        replace: 'if (kind === "directory")\n        return { problem:',
      },
      {
        file: "store/store-fs.js",
        find: "const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;",
        replace: "const READ_FLAGS = constants.O_RDONLY;",
      },
    ],
  },
  {
    name: "store-kinds",
    defect: "a directory, a sparse giant or a link where the store expects an entry file: exit 70 or a read outside",
    surfaces: { store: 1 },
    edits: [
      {
        file: "store/store-fs.js",
        find: "export function readRegular(file, limit = MAX_ENTRY_BYTES, check = null) {",
        replace:
          'export function readRegular(file, limit = MAX_ENTRY_BYTES, check = null) {\n    if (pathKind(file) !== "missing" && pathKind(file) !== "FIFO") return { bytes: readFileSync(file), problem: null };',
      },
      {
        file: "store/store-fs.js",
        find: "export async function readRegularInPieces(file, tail, arrived, limit = MAX_ENTRY_BYTES, check = null) {",
        replace:
          "export async function readRegularInPieces(file, tail, arrived, limit = MAX_ENTRY_BYTES, check = null) {\n" +
          '    if (pathKind(file) !== "missing" && pathKind(file) !== "FIFO") {\n' +
          "      const b = readFileSync(file);\n" +
          "      arrived(b, Math.max(0, b.length - tail), Math.max(0, b.length - tail));\n" +
          "      return { bytes: b, problem: null };\n" +
          "    }",
      },
      {
        file: "store/store-fs.js",
        find: 'import { closeSync, constants, fstatSync, lstatSync, openSync, read, readSync, writeSync } from "node:fs";',
        replace:
          'import { closeSync, constants, fstatSync, lstatSync, openSync, read, readFileSync, readSync, writeSync } from "node:fs";',
      },
      {
        file: "store/plan-store.js",
        find: "catch (e) {\n        throw fsError(e, MODULE, file, false);",
        replace: "catch (e) {\n        throw e;",
        count: 2,
      },
      {
        // store list judges an entry in pieces (judgeRegular): the same unchecked whole read there
        file: "store/store-fs.js",
        find: "export function judgeRegular(file, limit, check, judge) {",
        replace:
          "export function judgeRegular(file, limit, check, judge) {\n" +
          '    if (pathKind(file) !== "missing" && pathKind(file) !== "FIFO") {\n' +
          "      const b = readFileSync(file);\n" +
          "      const at = (into, pos, n) => { const s = b.subarray(pos, pos + n); into.set(s); return s.length; };\n" +
          "      return { size: b.length, verdict: judge(b.length, at), problem: null };\n" +
          "    }",
      },
      {
        file: "store/entry-read.js",
        find: "catch (e) {\n        throw fsError(e, MODULE, file, false);",
        replace: "catch (e) {\n        throw e;",
        count: 2,
      },
    ],
  },
  {
    name: "log-checked-late",
    defect: "a directory at S/log: store add fails naming the log while the entry was added",
    surfaces: { store: 1 },
    edits: [
      {
        file: "store/plan-store.js",
        find: '        entryPathDamage(s, id) ??\n        partDamage(logFile(s), "file", LOG_PART, true);',
        replace: "        entryPathDamage(s, id);",
      },
    ],
  },
  {
    name: "arrow-header-unchecked",
    defect: "the Arrow decoder does not check the header as the JSON reader does",
    surfaces: { schedule: 1 },
    edits: [
      {
        file: "io/schedule-arrow-meta.js",
        find: "    checkScheduleHeader(scheduleHeaderDocument(h, h.stages), MODULE);",
        replace: "",
      },
    ],
  },
  {
    name: "goal-injection",
    defect: "an algorithm name with a newline is written verbatim into the GOAL export",
    surfaces: { "export-text": 1 },
    edits: [{ file: "export/goal.js", find: "${goalCommentText(prog.algorithm)}", replace: "${prog.algorithm}" }],
  },
  {
    name: "bytes-past-2^53",
    defect: "byte counts past 2^53 written rounded",
    surfaces: { "export-text": 1 },
    edits: [
      {
        file: "export/exact-number.js",
        find: "if (bytes > Number.MAX_SAFE_INTEGER)",
        replace: "if (bytes > Infinity)",
      },
    ],
  },
  {
    name: "simgrid-infinite-bandwidth",
    defect: "bandwidth 1e308 written as InfinityBps into a SimGrid platform",
    surfaces: { topology: 1 },
    edits: [
      {
        file: "export/exact-number.js",
        find: "if (!Number.isFinite(shown) || (positive",
        replace: "if (Number.isNaN(shown) || (positive",
      },
    ],
  },
  {
    name: "topology-prototype-names",
    defect: "a topology host named __proto__ or constructor is 'declared twice'",
    surfaces: { topology: 1 },
    edits: [
      {
        file: "topology/graph-builder.js",
        find: "    g = prototypeFreeGraph();",
        replace: "    g = new Graph({ directed: false, multigraph: true, compound: false });",
      },
    ],
  },
  {
    name: "spread-into-push",
    defect: "70,000 empty stages: verify overflows the stack (a spread into push)",
    surfaces: { schedule: 1 },
    edits: [
      {
        file: "verifier/verify.js",
        find: "for (const c of measuredStageRows(s, metrics))\n        checks.push(c);",
        replace: "checks.push(...measuredStageRows(s, metrics));",
      },
    ],
  },
  {
    name: "bom-not-skipped",
    defect: "a UTF-8 byte-order mark is not skipped (readers disagree)",
    surfaces: { matrix: 1, schedule: 1, program: 1 },
    edits: [{ file: "io/json-text.js", find: "b[2] === 0xbf ? 3 : 0;", replace: "b[2] === 0xbf ? 0 : 0;" }],
  },
  {
    name: "utf16-unnamed",
    defect: "UTF-16 input reported by its wrong first byte instead of as UTF-16",
    surfaces: { matrix: 1, schedule: 1, program: 1 },
    edits: [
      {
        file: "io/json-text.js",
        find: "export function encodingProblem(head) {",
        replace: "export function encodingProblem(head) {\n    if (head.length > 0) return null;",
      },
    ],
  },
  {
    name: "duplicate-keys-taken",
    defect: "duplicate keys accepted (readers disagree)",
    surfaces: { matrix: 1, schedule: 1, program: 1 },
    edits: [
      {
        file: "io/json-text.js",
        find: "if (set.has(name) && this.found === null)",
        replace: "if (set.has(name) && this.found === 0)",
      },
    ],
  },
  {
    name: "store-alone-help",
    defect: "commplan store alone prints the whole help",
    surfaces: { cli: 1 },
    edits: [
      {
        file: "cli/commands/store.js",
        find: "    throw subCommandError(store, word);",
        replace: "    store.outputHelp({ error: true });\n    throw subCommandError(store, word);",
      },
    ],
  },
  {
    name: "message-sent-twice",
    defect: "verify-program passes a program that sends one message twice",
    surfaces: { program: 1 },
    edits: [
      {
        file: "verifier/program/execute.js",
        find: "PROGRAM_SOURCE, found.twice === 0,",
        replace: "PROGRAM_SOURCE, true,",
      },
    ],
  },
];

/**
 * Writes mutant `m`'s build under `root` (a copy of `dist` with its edits, beside the package's package.json and a
 * link to its node_modules) and returns its dist directory. Throws when an edit's text is not found exactly once.
 */
export function makeMutantDist(m: Mutant, dist: string, root: string): string {
  const pkg = join(dist, "..");
  const dir = join(root, m.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(dist, join(dir, "dist"), {
    recursive: true,
    filter: (src) => !src.endsWith(".map") && !src.endsWith(".d.ts"),
  });
  cpSync(join(pkg, "package.json"), join(dir, "package.json"));
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(pkg, "node_modules"), join(dir, "node_modules"));
  for (const e of m.edits) {
    const file = join(dir, "dist", e.file);
    const text = readFileSync(file, "utf8");
    const n = text.split(e.find).length - 1;
    if (n !== (e.count ?? 1))
      throw new Error(`mutant ${m.name}: ${e.file} holds its text ${n} times, not ${e.count ?? 1}`);
    writeFileSync(file, text.split(e.find).join(e.replace));
  }
  return join(dir, "dist");
}
