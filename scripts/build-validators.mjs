// Build step (npm run build, after tsc): ajv's standalone code of every v1 schema, into dist/io/validators/.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeStandaloneValidators } from "../dist/io/schema-build.js";

const names = writeStandaloneValidators(join(dirname(fileURLToPath(import.meta.url)), "../dist/io/validators"));
if (names.length === 0) throw new Error("build-validators: no schema written");
