/** Progress of the lowering, the writers (program JSON, GOAL, schedule JSON) and the verifier: monotone up to the total, output unchanged. */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { goalText } from "../../src/export/goal.js";
import {
  programJsonPieces,
  programToJsonText,
  writeProgramJson,
  writeProgramSplit,
} from "../../src/io/program-json-write.js";
import { scheduleToJsonText, writeScheduleJson } from "../../src/io/schedule-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";
import { verifySchedule } from "../../src/verifier/verify.js";
import { expectProgress, recorder } from "../helpers/progress.js";
import { errorOf } from "../helpers/errors.js";
import { isCommplanError } from "../../src/model/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("progress");

const m = generatePattern("random", 12, { density: 0.8, max: 7 }, 2);
const direct = plan(m, "shift");
const payload = plan(m, "two-stage", { payload: true });

describe("lowering progress", () => {
  it("direct and payload plans, both variants: monotone up to the total, the program unchanged", () => {
    for (const s of [direct, payload])
      for (const variant of ["nonblocking", "blocking"] as const) {
        const { calls, progress } = recorder();
        const a = lowerSchedule(m, s, { variant, progress });
        expectProgress(calls);
        expect(new Set(calls.map((c) => c[0])).size).toBeGreaterThanOrEqual(3);
        expect(programToJsonText(a.program)).toBe(programToJsonText(lowerSchedule(m, s, { variant }).program));
      }
  });
});

describe("writer progress", () => {
  const prog = lowerSchedule(m, payload).program;

  it("program JSON in pieces, to a file and split: every rank (file) counted, the bytes unchanged", async () => {
    const pieces = recorder();
    expect([...programJsonPieces(prog, undefined, 64, { progress: pieces.progress })].join("")).toBe(
      programToJsonText(prog),
    );
    expectProgress(pieces.calls);
    expect(pieces.calls.at(-1)).toEqual([12, 12]);
    expect(pieces.calls.length).toBeGreaterThan(2);
    const file = recorder();
    await writeProgramJson(prog, join(dir, "p.json"), { progress: file.progress });
    expectProgress(file.calls);
    expect(readFileSync(join(dir, "p.json"), "utf8")).toBe(programToJsonText(prog));
    const split = recorder();
    await writeProgramSplit(prog, join(dir, "split"), { progress: split.progress });
    expectProgress(split.calls);
    expect(split.calls.at(-1)).toEqual([12, 12]);
    expect(readdirSync(join(dir, "split"))).toHaveLength(13);
  });

  it("GOAL text and schedule JSON: ranks and transfers counted, the text unchanged", async () => {
    const goal = recorder();
    expect(goalText(prog, { calcPerByte: 2, progress: goal.progress })).toBe(goalText(prog, { calcPerByte: 2 }));
    expectProgress(goal.calls);
    expect(goal.calls.at(-1)).toEqual([12, 12]);
    const sched = recorder();
    await writeScheduleJson(payload, join(dir, "s.json"), { progress: sched.progress });
    expectProgress(sched.calls);
    expect(sched.calls.at(-1)).toEqual([payload.transferCount, payload.transferCount]);
    expect(sched.calls.length).toBeGreaterThan(2);
    expect(readFileSync(join(dir, "s.json"), "utf8")).toBe(scheduleToJsonText(payload));
  });
});

describe("verifier progress", () => {
  it("message-level and payload plans: monotone up to the total, the report unchanged", () => {
    for (const s of [direct, payload]) {
      const { calls, progress } = recorder();
      const r = verifySchedule(m, s, { progress });
      expectProgress(calls);
      expect(new Set(calls.map((c) => c[0])).size).toBeGreaterThanOrEqual(3);
      expect(r).toEqual(verifySchedule(m, s));
    }
  });
});

describe("a progress option that is not a function", () => {
  const bad = "often" as unknown as () => void;
  const said = (module: string): string => `${module}: progress must be a function (done, total), got string`;
  const prog = lowerSchedule(m, direct).program;

  it("is refused by name by the lowering, the verifier and the GOAL and program piece writers", () => {
    expect(errorOf(() => lowerSchedule(m, direct, { progress: bad })).message).toBe(said("lower"));
    expect(errorOf(() => verifySchedule(m, direct, { progress: bad })).message).toBe(said("verify"));
    expect(errorOf(() => goalText(prog, { progress: bad })).message).toBe(said("export"));
    const pieces = errorOf(() => [...programJsonPieces(prog, undefined, 64, { progress: bad })]);
    expect(pieces.message).toBe(said("program"));
    expect(pieces.place.field).toBe("progress");
  });

  it("is refused by name by the file writers, before anything is written", async () => {
    const refused = async (f: () => Promise<void>): Promise<string> => {
      const e: unknown = await f().then(
        () => null,
        (x: unknown) => x,
      );
      if (!isCommplanError(e)) throw new Error(`expected a CommplanError, got ${String(e)}`);
      return e.message;
    };
    expect(await refused(() => writeScheduleJson(direct, join(dir, "bad.json"), { progress: bad }))).toBe(
      said("schedule"),
    );
    expect(await refused(() => writeProgramJson(prog, join(dir, "bad.json"), { progress: bad }))).toBe(said("program"));
    expect(await refused(() => writeProgramSplit(prog, join(dir, "bad-split"), { progress: bad }))).toBe(
      said("program"),
    );
    expect(readdirSync(dir)).not.toContain("bad.json");
    expect(readdirSync(dir)).not.toContain("bad-split");
  });
});
