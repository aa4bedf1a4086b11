/** The Arrow reader checks a schedule's header and column values exactly as the JSON reader does: the same field named in one line. */
import { describe, expect, it } from "vitest";
import { Float64, makeVector, Schema, Table, tableFromIPC, tableToIPC } from "apache-arrow";
import type { Vector } from "apache-arrow";
import { matrixFromRows } from "../../src/model/matrix.js";
import type { Schedule } from "../../src/model/schedule.js";
import { decodeScheduleArrow, encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { plan } from "../../src/planner/registry.js";

const M = matrixFromRows([
  [0, 2, 1],
  [3, 0, 1],
  [1, 1, 0],
]);

/** A schedule of M with payloads and times. */
function timedSchedule(): Schedule {
  const s = plan(M, "two-stage", { payload: true });
  const n = s.transferCount;
  const start = new Float64Array(n);
  const end = new Float64Array(n).fill(1);
  return { ...s, times: { start, end } };
}

/** The Arrow file of s with its header fields patched and columns replaced. */
function hostileArrow(
  s: Schedule,
  patch: (h: Record<string, unknown>) => void,
  columns: { readonly [name: string]: Vector } = {},
): Uint8Array {
  const t = tableFromIPC(encodeScheduleArrow(s));
  const h = JSON.parse(t.schema.metadata.get("commplan")!) as Record<string, unknown>;
  patch(h);
  const meta = new Map(t.schema.metadata);
  meta.set("commplan", JSON.stringify(h));
  const cols = Object.fromEntries(t.schema.fields.map((f) => [f.name, columns[f.name] ?? t.getChild(f.name)!]));
  const made = new Table(cols);
  return tableToIPC(new Table(new Schema(made.schema.fields, meta), made.batches), "file");
}

/** The JSON text of s with its header fields patched. */
function hostileJson(s: Schedule, patch: (h: Record<string, unknown>) => void): string {
  const doc = JSON.parse(scheduleToJsonText(s)) as Record<string, unknown>;
  patch(doc);
  return JSON.stringify(doc);
}

/** The message of what fn throws, without its module prefix. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message.replace(/^[a-z-]+: /, "");
  }
  return "(accepted)";
}

describe("the Arrow reader's header check", () => {
  const s = plan(M, "two-stage", {});
  const cases: [string, (h: Record<string, unknown>) => void][] = [
    ["matrixDigest null", (h) => (h["matrixDigest"] = null)],
    ["algorithm null", (h) => (h["algorithm"] = null)],
    ["params 5", (h) => (h["params"] = 5)],
    ["seed -5.5", (h) => (h["seed"] = -5.5)],
    ["seed 2^32", (h) => (h["seed"] = 2 ** 32)],
    ["elementBytes 1e15", (h) => (h["elementBytes"] = 1e15)],
    ["p 2^21", (h) => (h["p"] = 2 ** 21)],
    ["stage name 7", (h) => ((h["stages"] as Record<string, unknown>[])[0]!["name"] = 7)],
    ["stage rearrange", (h) => ((h["stages"] as Record<string, unknown>[])[0]!["rearrange"] = "spin")],
  ];
  it.each(cases)("refuses %s with the JSON reader's words", (_, patch) => {
    const fromJson = refusal(() => parseScheduleJsonText(hostileJson(s, patch)));
    expect(fromJson).toMatch(/^\/\S+ must /);
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, patch)))).toBe(fromJson);
  });

  it("refuses a stall table the JSON reader could not hold", () => {
    const stalls = (h: Record<string, unknown>): { start: number[]; node: unknown[] } =>
      h["stalls"] as { start: number[]; node: unknown[] };
    const last = (h: Record<string, unknown>): number => stalls(h).start.length - 1;
    const node = (v: unknown) => (h: Record<string, unknown>) => {
      stalls(h).node.push(v, v);
      stalls(h).start[last(h)] = 2;
      for (let k = 1; k < last(h); k++) stalls(h).start[k] = 0;
    };
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, node(9))))).toBe(
      "stalls.node[0] = 9 is not a node index in 0..2",
    );
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, node(1))))).toMatch(/^stalls.node\[1\] = 1 repeats/);
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, node("x"))))).toBe("stalls.node[0] must be integer");
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, (h) => (stalls(h).start[1] = -1))))).toMatch(
      /^stalls.start\[1\] must be >= 0/,
    );
  });
});

describe("the Arrow reader's column values", () => {
  const s = timedSchedule();
  const n = s.transferCount;
  const f64 = (a: number[]): Vector => makeVector({ type: new Float64(), data: Float64Array.from(a) });
  const same = (h: Record<string, unknown>): void => void h;
  const sizes = (v: number): Vector => f64([v, ...Array.from(s.size.subarray(1))]);

  it("accepts the schedule as written", () => {
    expect(scheduleToJsonText(decodeScheduleArrow(hostileArrow(s, same)))).toBe(scheduleToJsonText(s));
  });

  it.each([
    [2 ** 60, "size of transfer 0 must be <= 9007199254740991"],
    [1.5, "size of transfer 0 must be integer"],
    [0, "size of transfer 0 must be >= 1"],
  ])("refuses the size %s", (v, text) => {
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, same, { size: sizes(v) })))).toContain(text);
  });

  it("refuses times out of range or out of order", () => {
    const times = (a: number, b: number) => ({
      start: f64([a, ...Array<number>(n - 1).fill(0)]),
      end: f64([b, ...Array<number>(n - 1).fill(1)]),
    });
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, same, times(-1, 1))))).toBe(
      "start of transfer 0 must be >= 0",
    );
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, same, times(0, 1e300))))).toMatch(
      /^end of transfer 0 must be <= 9007199254740991/,
    );
    expect(refusal(() => decodeScheduleArrow(hostileArrow(s, same, times(2, 1))))).toBe(
      "start of transfer 0 ends before it starts (start 2, end 1)",
    );
  });

  it("refuses a chunk offset of 1e300 and a chunk node past p", () => {
    const t = tableFromIPC(encodeScheduleArrow(s));
    const chunks = t.getChild("chunks")!;
    const rows = chunks.toArray().map((l: Vector) => l.toArray().map((c: { toJSON(): unknown }) => c.toJSON()));
    expect(rows.length).toBe(n);
    const bad = (edit: (c: Record<string, number>) => void): Uint8Array => {
      const fresh = tableFromIPC(encodeScheduleArrow(s));
      const list = fresh.getChild("chunks")!;
      const offsets = list.data[0]!.children[0]!;
      const [origin, , offset] = offsets.children as unknown as { values: Float64Array | Int32Array }[];
      const c = { origin: 0, offset: 0 };
      edit(c);
      if (c.origin !== 0) (origin!.values as Int32Array)[0] = c.origin;
      if (c.offset !== 0) (offset!.values as Float64Array)[0] = c.offset;
      return tableToIPC(fresh, "file");
    };
    expect(refusal(() => decodeScheduleArrow(bad((c) => (c.offset = 1e300))))).toMatch(
      /^chunks.offset of transfer 0 \(chunk 0 of transfer 0\) must be <= 9007199254740991/,
    );
    expect(refusal(() => decodeScheduleArrow(bad((c) => (c.origin = 7))))).toBe(
      "chunks.origin of transfer 0 (chunk 0 of transfer 0) = 7 is not a node index in 0..2",
    );
  });
});
