// ScheduleJsonReader takes plain Uint8Array chunks (its public type), not only Buffers, split anywhere.
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/registry.js";
import { parseScheduleJsonText, scheduleToJsonText } from "../../src/io/index.js";
import { ScheduleJsonReader } from "../../src/io/schedule-json-read.js";

describe("ScheduleJsonReader", () => {
  it("reads a document fed as Uint8Array views (offsets into one larger buffer) as it reads the text", () => {
    const m = matrixFromRows([
      [0, 3, 1],
      [2, 0, 5],
      [4, 1, 0],
    ]);
    const text = scheduleToJsonText(plan(m, "shift", { payload: true }));
    const bytes = new TextEncoder().encode(`xx${text}yy`).subarray(2, -2);
    for (const size of [1, 7, bytes.length]) {
      const reader = new ScheduleJsonReader("bytes.json");
      for (let at = 0; at < bytes.length; at += size) {
        const chunk = bytes.subarray(at, at + size);
        expect(chunk).not.toBeInstanceOf(Buffer);
        reader.write(chunk);
      }
      expect(scheduleToJsonText(reader.finish())).toBe(scheduleToJsonText(parseScheduleJsonText(text)));
    }
  });
});
