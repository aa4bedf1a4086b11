/**
 * The arguments of `store get DIR --id ID` read without commander, for a run that loads only what it needs; any other
 * shape (help, a matrix, an option it does not know, a value that looks like an option) is left to commander.
 */

/** A `store get --id` run as its arguments say. */
export interface StoreGetArgv {
  readonly dir: string;
  readonly id: string;
  readonly output: string;
  /** Absent: from the output file's extension (store get's rule). */
  readonly format: string | undefined;
  readonly json: boolean;
  readonly maxMemory: string | undefined;
}

/** The options this reader knows, by every spelling, and the name each sets; --json takes no value. */
const OPTIONS: { readonly [flag: string]: string } = {
  "--id": "id",
  "-o": "output",
  "--output": "output",
  "-f": "format",
  "--format": "format",
  "--max-memory": "maxMemory",
  "--json": "json",
};

/**
 * The run `argv` (without "node commplan") asks for when it is `store get` with one store directory, --id and only the
 * options -o / --output, -f / --format, --json and --max-memory, each at most once; else null (commander parses it).
 */
export function storeGetArgv(argv: readonly string[]): StoreGetArgv | null {
  if (argv[0] !== "store" || argv[1] !== "get") return null;
  const got = new Map<string, string>();
  const dirs: string[] = [];
  for (let k = 2; k < argv.length; k++) {
    const arg = argv[k]!;
    if (!arg.startsWith("-")) {
      dirs.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const name = OPTIONS[flag];
    if (name === undefined || got.has(name)) return null;
    if (name === "json") {
      if (eq >= 0) return null;
      got.set(name, "");
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++k];
    // "-" is stdout for -o; any other value that starts with "-", or none, is commander's to judge
    if (value === undefined || value === "" || (value.startsWith("-") && !(name === "output" && value === "-")))
      return null;
    got.set(name, value);
  }
  const id = got.get("id");
  if (dirs.length !== 1 || id === undefined) return null;
  return {
    dir: dirs[0]!,
    id,
    output: got.get("output") ?? "-",
    format: got.get("format"),
    json: got.has("json"),
    maxMemory: got.get("maxMemory"),
  };
}
