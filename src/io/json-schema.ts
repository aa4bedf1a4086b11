/** JSON Schema validation: the v1 schemas of schemas/ compiled once with ajv (draft 2020-12, strict). */
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { fail } from "../model/errors.js";
import { jsonExcerpt, oneLine, quoted } from "../internal/quoted.js";

/**
 * The documents commplan can validate; "schedule-header" is a schedule whose steps are not looked
 * into, "matrix-header" a matrix whose rows and entries are not looked into (the streaming readers
 * check those by hand).
 */
export type SchemaName = keyof typeof SCHEMA_FILES | "schedule-header" | "matrix-header";

/** The format name each v1 document that has one carries in its `format` field. */
export const FORMAT_NAMES = {
  matrix: "commplan.matrix/v1",
  schedule: "commplan.schedule/v1",
  report: "commplan.report/v1",
  program: "commplan.program/v1",
  simulation: "commplan.simulation/v1",
  "te-table": "commplan.te-table/v1",
  topology: "commplan.topology/v1",
  compare: "commplan.compare/v1",
  plan: "commplan.plan/v1",
  gen: "commplan.gen/v1",
  export: "commplan.export/v1",
  platform: "commplan.platform/v1",
  "store-add": "commplan.store-add/v1",
  "store-get": "commplan.store-get/v1",
  "store-list": "commplan.store-list/v1",
  "store-verify": "commplan.store-verify/v1",
  "store-gc": "commplan.store-gc/v1",
  "check-planner": "commplan.check-planner/v1",
  precompute: "commplan.precompute/v1",
} as const;

/**
 * The schema file of every JSON document commplan reads or writes: the documents it also reads, the
 * `--json` outputs that carry a `format` (simulate, te-table, compare, and the summaries of plan, gen,
 * export, platform, store, check-planner and precompute), and three without one (simulate --trace's
 * Chrome trace, stats --json, cost --json).
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
} as const;

/** The `--json` summaries of the commands that write files or run jobs (compiled after matrix.v1, which they use). */
const SUMMARY_SCHEMAS = [
  "plan",
  "gen",
  "export",
  "platform",
  "store-add",
  "store-get",
  "store-list",
  "store-verify",
  "store-gc",
  "check-planner",
  "precompute",
] as const;

/** The `$id` of the derived schedule-header schema (not a file: schedule.v1 with `$defs/step` accepting anything). */
const HEADER_ID = "https://commplan.dev/schemas/schedule-header.v1.schema.json";
/**
 * The `$id` of the derived matrix-header schema (not a file: matrix.v1 with the items of `rows` and `entries` accepting
 * anything).
 */
const MATRIX_HEADER_ID = "https://commplan.dev/schemas/matrix-header.v1.schema.json";

// Under `module: nodenext` the default import of this CommonJS module is `module.exports`, whose
// `default` is the class; bundlers may hand over the class itself. Accept both.
const Ajv2020 =
  (Ajv2020Module as unknown as { default?: typeof Ajv2020Module.default }).default ??
  (Ajv2020Module as unknown as typeof Ajv2020Module.default);

type JsonObject = { [k: string]: unknown };

/** Reads one schema file from the repository's schemas/ folder (works from src/model and dist/model). */
export function loadSchema(name: keyof typeof SCHEMA_FILES): JsonObject {
  const url = new URL(`../../schemas/${SCHEMA_FILES[name]}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as JsonObject;
}

/** The compiled validators, made on first use: a memo of a pure result (the schemas are the package's fixed files). */
let compiled: Record<SchemaName, ValidateFunction> | null = null;

function validators(): Record<SchemaName, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: true, allErrors: false, allowUnionTypes: true });
  const matrix = loadSchema("matrix");
  const schedule = loadSchema("schedule");
  const report = loadSchema("report");
  // The header schema is schedule.v1 itself with the step definition replaced by `true`, so
  // the contract stays in one file and the streaming reader checks steps by hand.
  const header = structuredClone(schedule);
  header["$id"] = HEADER_ID;
  header["title"] = "commplan schedule header, version 1 (steps not checked)";
  (header["$defs"] as JsonObject)["step"] = true;
  const matrixHeader = structuredClone(matrix);
  matrixHeader["$id"] = MATRIX_HEADER_ID;
  matrixHeader["title"] = "commplan matrix header, version 1 (rows and entries not looked into)";
  const props = matrixHeader["properties"] as { rows: JsonObject; entries: JsonObject };
  props.rows["items"] = true;
  props.entries["items"] = true;
  const matrixValidator = ajv.compile(matrix);
  compiled = {
    ...(Object.fromEntries(SUMMARY_SCHEMAS.map((name) => [name, ajv.compile(loadSchema(name))])) as Record<
      (typeof SUMMARY_SCHEMAS)[number],
      ValidateFunction
    >),
    matrix: matrixValidator,
    schedule: ajv.compile(schedule),
    report: ajv.compile(report),
    simulation: ajv.compile(loadSchema("simulation")),
    "te-table": ajv.compile(loadSchema("te-table")),
    "chrome-trace": ajv.compile(loadSchema("chrome-trace")),
    stats: ajv.compile(loadSchema("stats")),
    cost: ajv.compile(loadSchema("cost")),
    "schedule-header": ajv.compile(header),
    "matrix-header": ajv.compile(matrixHeader),
    program: ajv.compile(loadSchema("program")),
    topology: ajv.compile(loadSchema("topology")),
    compare: ajv.compile(loadSchema("compare")),
    "precompute-spec": ajv.compile(loadSchema("precompute-spec")),
  };
  return compiled;
}

/** The keys of which a schema's top-level oneOf requires exactly one ("rows" and "entries"), from its branches. */
function oneOfKeys(schema: unknown): string[] {
  const branches = (schema as { oneOf?: { required?: string[] }[] } | null)?.oneOf ?? [];
  return branches.flatMap((b) => b.required ?? []);
}

/**
 * Formats one ajv error as "<JSON path> <problem>" (the path of the document itself is "/"); `schema` (the root
 * schema) names the keys of a top-level oneOf.
 */
export function describeSchemaError(e: ErrorObject, schema?: unknown): string {
  const path = e.instancePath === "" ? "/" : oneLine(e.instancePath);
  const params = e.params as { additionalProperty?: string; allowedValue?: unknown; allowedValues?: unknown[] };
  let text = `${path} ${e.message ?? "is invalid"}`;
  if (e.keyword === "additionalProperties" && params.additionalProperty !== undefined)
    text += ` (${quoted(params.additionalProperty)})`;
  else if (e.keyword === "const") text += ` ${JSON.stringify(params.allowedValue)}`;
  else if (e.keyword === "enum" && params.allowedValues)
    text += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  else if (e.keyword === "oneOf" && path === "/" && e.schemaPath.startsWith("#/oneOf")) {
    const keys = oneOfKeys(schema).map(quoted);
    if (keys.length > 1) text += ` (give exactly one of ${keys.slice(0, -1).join(", ")} and ${keys[keys.length - 1]})`;
  }
  return text;
}

/**
 * Validates `value` against a v1 schema; throws one CommplanError naming the JSON path of the first
 * problem (`schedule: s.json: /stages/0/steps/3/transfers/2/src must be integer`). A wrong or missing
 * `format` is BAD_FORMAT, anything else BAD_INPUT.
 */
export function validateWithSchema(schema: SchemaName, value: unknown, module: string, file?: string): void {
  const validate = validators()[schema];
  if (validate(value)) return;
  // The errors of oneOf's failed branches come before the oneOf error itself, which says more.
  const first = validate.errors?.find((e) => e.keyword === "oneOf") ?? validate.errors?.[0];
  const place = (field: string): { file?: string; field: string } => (file === undefined ? { field } : { file, field });
  const base = schema === "schedule-header" ? "schedule" : schema === "matrix-header" ? "matrix" : schema;
  const expected: string | undefined =
    base in FORMAT_NAMES ? FORMAT_NAMES[base as keyof typeof FORMAT_NAMES] : undefined;
  if (expected === undefined) {
    if (!first) throw fail(module, "BAD_INPUT", "the document does not match its schema", place("/"));
    throw fail(
      module,
      "BAD_INPUT",
      describeSchemaError(first, validate.schema),
      place(first.instancePath === "" ? "/" : first.instancePath),
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw fail(module, "BAD_FORMAT", `not a ${expected} document: the top level is not a JSON object`, place("/"));
  }
  {
    const format = (value as JsonObject)["format"];
    if (format === undefined)
      throw fail(module, "BAD_FORMAT", `not a ${expected} document: the 'format' field is missing`, place("/format"));
    if (format !== expected)
      throw fail(module, "BAD_FORMAT", `/format is ${jsonExcerpt(format)}, expected "${expected}"`, place("/format"));
  }
  if (!first) throw fail(module, "BAD_INPUT", "the document does not match its schema", place("/"));
  throw fail(
    module,
    "BAD_INPUT",
    describeSchemaError(first, validate.schema),
    place(first.instancePath === "" ? "/" : first.instancePath),
  );
}
