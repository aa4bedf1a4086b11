// Preload (node --import) for tests: appends every module a run loads to the file named by COMMPLAN_MODULE_LOG, the
// ES modules as the resolve hook sees them and, at exit, the CommonJS ones in require's cache (ajv is CommonJS).
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import process from "node:process";

const hook = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.COMMPLAN_MODULE_LOG, r.url + "\\n");
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
process.on("exit", () => {
  const cached = Object.keys(createRequire(import.meta.url).cache);
  appendFileSync(process.env.COMMPLAN_MODULE_LOG, cached.map((f) => `${f}\n`).join(""));
});
