/** JSON Schema validation against the v1 schemas of schemas/ (draft 2020-12, strict), one schema loaded at a time. */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { fail } from "../model/errors.js";
import { jsonExcerpt, oneLine, quoted } from "../internal/quoted.js";
import { compileValidator, type SchemaName } from "./schema-compile.js";

export { loadSchema, SCHEMA_FILES, type SchemaName } from "./schema-compile.js";

/** The format name each v1 document that has one carries in its `format` field. */
export const FORMAT_NAMES = Object.freeze({
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
  "precompute-capture": "commplan.precompute-capture/v1",
  demo: "commplan.demo/v1",
  show: "commplan.show/v1",
} as const);

type JsonObject = { [k: string]: unknown };

/**
 * The validator of each schema, made on first use: the standalone code the build wrote into dist/io/validators/ (no
 * ajv compiler loaded), else (a run from source) compiled with ajv. A memo of a pure result: the schemas are the
 * package's fixed files.
 */
const validators = new Map<SchemaName, ValidateFunction>();

/** The validator of one schema (see `validators`). */
function validatorOf(name: SchemaName): ValidateFunction {
  let v = validators.get(name);
  if (v === undefined) {
    // "../io/": the same folder from dist/io/ and from the bundle in dist/bundle/ (scripts/build-bundle.mjs)
    const built = new URL(`../io/validators/${name}.cjs`, import.meta.url);
    v = existsSync(built)
      ? (createRequire(import.meta.url)(fileURLToPath(built)) as ValidateFunction)
      : compileValidator(name);
    validators.set(name, v);
  }
  return v;
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
  const validate = validatorOf(schema);
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
