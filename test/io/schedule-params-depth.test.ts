/**
 * A schedule's params may nest at most 64 levels: the writers recurse, and a 10 KB file of arrays 5,000 deep overflowed
 * their stack (export -f arrow: exit 70, an internal error; export -f program: "cannot write: Maximum call stack size
 * exceeded"). Both schedule readers (JSON and Arrow) refuse it through the one header check.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScheduleJsonText } from "../../src/io/index.js";
import { readScheduleFile } from "../../src/io/schedule-read.js";
import { matrixToJsonText } from "../../src/io/matrix-write.js";
import { encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { MAX_PARAMS_DEPTH } from "../../src/io/schedule-header.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/index.js";
import type { JsonValue, Schedule } from "../../src/model/schedule.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** params {"x": [[...]]}: the object is level 1, so `depth` levels in all. */
function nested(depth: number): JsonValue {
  let v: JsonValue = [];
  for (let k = 2; k < depth; k++) v = [v];
  return { x: v };
}

const shift = (): { m: ReturnType<typeof generatePattern>; s: Schedule } => {
  const m = generatePattern("uniform", 4, {}, 1);
  return { m, s: plan(m, "shift") };
};
const MESSAGE = `/params is nested more than ${MAX_PARAMS_DEPTH} levels deep`;

describe("schedule params depth", () => {
  it("the JSON reader takes 64 levels and refuses 65, naming /params", () => {
    const { s } = shift();
    const text = (depth: number): string => scheduleToJsonText({ ...s, params: nested(depth) as Schedule["params"] });
    expect(parseScheduleJsonText(text(64), "s.json").params).toEqual(nested(64));
    expect(() => parseScheduleJsonText(text(65), "s.json")).toThrow(`schedule: s.json: ${MESSAGE}`);
  });

  it("the Arrow reader refuses it too", async () => {
    const { s } = shift();
    const d = tempDir("params-depth");
    writeFileSync(join(d, "s.arrow"), encodeScheduleArrow({ ...s, params: nested(65) as Schedule["params"] }));
    await expect(readScheduleFile(join(d, "s.arrow"))).rejects.toThrow(MESSAGE);
  });

  it("export of a 10 KB schedule with params 5,000 deep: exit 2 in one line, not an internal error", async () => {
    const { m, s } = shift();
    const d = tempDir("params-depth");
    writeFileSync(join(d, "m.json"), matrixToJsonText(m));
    const deep = `{"x":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    writeFileSync(join(d, "s.json"), scheduleToJsonText(s).replace('"params":{}', `"params":${deep}`));
    for (const format of ["arrow", "program"]) {
      const r = await run(
        "export",
        join(d, "s.json"),
        "-m",
        join(d, "m.json"),
        "-f",
        format,
        "-o",
        join(d, `o.${format}`),
      );
      expect(r.code, r.err).toBe(2);
      expect(r.err).toBe(
        `export: ${join(d, "s.json")}: ${MESSAGE} (a planner's parameters are flat; a schedule's params are written again by every export)\n`,
      );
    }
  });
});
