/**
 * The v1 schemas as ajv compiles them (draft 2020-12, strict): one ajv set-up shared by the build step that writes
 * standalone validators into dist/ and by the compile-on-first-use path of a run from source.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type Ajv2020Module from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { checkArg } from "../model/option-checks.js";

/** ajv's draft 2020-12 class (the `default` of its CommonJS module). */
type AjvClass = typeof Ajv2020Module.default;
/** An ajv instance. */
type Ajv2020 = InstanceType<AjvClass>;

/**
 * The schema file of every JSON document commplan reads or writes: the documents it also reads, the
 * `--json` outputs that carry a `format` (simulate, te-table, compare, demo, show, and the summaries of plan, gen,
 * export, platform, store, check-planner and precompute, a spec's run or a --from-capture run; verify and
 * verify-program print the report), and those without one (simulate --trace's Chrome trace, stats --json, cost
 * --json, and the listings of algorithms, machines, patterns and topologies, which are JSON arrays).
 */
export const SCHEMA_FILES = {
  matrix: "matrix.v1.schema.json",
  schedule: "schedule.v1.schema.json",
  report: "report.v1.schema.json",
  program: "program.v1.schema.json",
  simulation: "simulation.v1.schema.json",
  "te-table": "te-table.v1.schema.json",
  "chrome-trace": "chrome-trace.v1.schema.json",
  stats: "stats.v1.schema.json",
  cost: "cost.v1.schema.json",
  topology: "topology.v1.schema.json",
  compare: "compare.v1.schema.json",
  "precompute-spec": "precompute-spec.v1.schema.json",
  plan: "plan.v1.schema.json",
  gen: "gen.v1.schema.json",
  export: "export.v1.schema.json",
  platform: "platform.v1.schema.json",
  "store-add": "store-add.v1.schema.json",
  "store-get": "store-get.v1.schema.json",
  "store-list": "store-list.v1.schema.json",
  "store-verify": "store-verify.v1.schema.json",
  "store-gc": "store-gc.v1.schema.json",
  "check-planner": "check-planner.v1.schema.json",
  precompute: "precompute.v1.schema.json",
  "precompute-capture": "precompute-capture.v1.schema.json",
  demo: "demo.v1.schema.json",
  show: "show.v1.schema.json",
  algorithms: "algorithms.v1.schema.json",
  machines: "machines.v1.schema.json",
  patterns: "patterns.v1.schema.json",
  topologies: "topologies.v1.schema.json",
} as const;

/**
 * The documents commplan can validate; "schedule-header" is a schedule whose steps are not looked
 * into, "matrix-header" a matrix whose rows and entries are not looked into (the streaming readers
 * check those by hand).
 */
export type SchemaName = keyof typeof SCHEMA_FILES | "schedule-header" | "matrix-header";

/** Every schema name, files first, then the two derived headers. */
export const SCHEMA_NAMES: readonly SchemaName[] = [
  ...(Object.keys(SCHEMA_FILES) as (keyof typeof SCHEMA_FILES)[]),
  "schedule-header",
  "matrix-header",
];

/** The `$id` of the derived schedule-header schema (not a file: schedule.v1 with `$defs/step` accepting anything). */
const HEADER_ID = "https://commplan.dev/schemas/schedule-header.v1.schema.json";
/**
 * The `$id` of the derived matrix-header schema (not a file: matrix.v1 with the items of `rows` and `entries` accepting
 * anything).
 */
const MATRIX_HEADER_ID = "https://commplan.dev/schemas/matrix-header.v1.schema.json";

type JsonObject = { [k: string]: unknown };

/** Reads one schema file from the repository's schemas/ folder (works from src/io and dist/io). */
export function loadSchema(name: keyof typeof SCHEMA_FILES): JsonObject {
  checkArg(
    "schema",
    "loadSchema",
    "name",
    name,
    typeof name === "string" && Object.hasOwn(SCHEMA_FILES, name),
    `one of ${Object.keys(SCHEMA_FILES).join(", ")}`,
    "BAD_OPTION",
  );
  const url = new URL(`../../schemas/${SCHEMA_FILES[name]}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as JsonObject;
}

/**
 * The schema behind each name: a file's own, or for the headers schedule.v1 (matrix.v1) with the step definition (the
 * items of rows and entries) replaced by `true`, so the contract stays in one file and the streaming readers check
 * those by hand.
 */
function schemaOf(name: SchemaName): JsonObject {
  if (name === "schedule-header") {
    const header = loadSchema("schedule");
    header["$id"] = HEADER_ID;
    header["title"] = "commplan schedule header, version 1 (steps not checked)";
    (header["$defs"] as JsonObject)["step"] = true;
    return header;
  }
  if (name === "matrix-header") {
    const header = loadSchema("matrix");
    header["$id"] = MATRIX_HEADER_ID;
    header["title"] = "commplan matrix header, version 1 (rows and entries not looked into)";
    const props = header["properties"] as { rows: JsonObject; entries: JsonObject };
    props.rows["items"] = true;
    props.entries["items"] = true;
    return header;
  }
  return loadSchema(name);
}

/** The schemas other schemas `$ref` by `$id` (the summaries use matrix.v1's definitions). */
const REFERENCED: readonly (keyof typeof SCHEMA_FILES)[] = ["matrix"];

/**
 * An ajv instance holding the schemas `name` needs, with commplan's options (strict, first error only); `source` keeps
 * the generated code for ajv's standalone output.
 */
function ajvFor(source: boolean): Ajv2020 {
  // ajv is CommonJS: required here, so a run that validates with the standalone code never loads its compiler
  const require = createRequire(import.meta.url);
  const Ajv = (require("ajv/dist/2020.js") as { default: AjvClass }).default;
  const ajv = new Ajv({
    strict: true,
    allErrors: false,
    allowUnionTypes: true,
    ...(source ? { code: { source: true } } : {}),
  });
  for (const name of REFERENCED) ajv.addSchema(loadSchema(name));
  return ajv;
}

/** Compiles the validator of one schema with ajv (the path of a run from source, where no standalone code is built). */
export function compileValidator(name: SchemaName): ValidateFunction {
  const ajv = ajvFor(false);
  const schema = schemaOf(name);
  return REFERENCED.includes(name as keyof typeof SCHEMA_FILES)
    ? (ajv.getSchema(schema["$id"] as string) as ValidateFunction)
    : ajv.compile(schema);
}

/**
 * The standalone CommonJS module of every schema's validator (ajv's `standaloneCode`: the code ajv compiles, written
 * out, requiring only ajv's small runtime helpers): the build writes one file per schema into dist/io/validators/.
 */
export function standaloneValidatorModules(): ReadonlyMap<SchemaName, string> {
  const require = createRequire(import.meta.url);
  const standaloneCode = (require("ajv/dist/standalone/index.js") as { default: (a: Ajv2020, v: unknown) => string })
    .default;
  const out = new Map<SchemaName, string>();
  for (const name of SCHEMA_NAMES) {
    const ajv = ajvFor(true);
    const schema = schemaOf(name);
    const validate = REFERENCED.includes(name as keyof typeof SCHEMA_FILES)
      ? (ajv.getSchema(schema["$id"] as string) as ValidateFunction)
      : ajv.compile(schema);
    out.set(name, standaloneCode(ajv, validate));
  }
  return out;
}
