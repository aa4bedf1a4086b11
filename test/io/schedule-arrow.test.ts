/** Arrow form of a schedule: encode then decode gives the same schedule for every planner over random matrices; bad files are refused in one line. */
import fc from "fast-check";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  RecordBatchFileWriter,
  RecordBatchReader,
  Schema,
  Table,
  tableFromIPC,
  tableToIPC,
  makeVector,
  type Vector,
} from "apache-arrow";
import { isCommplanError } from "../../src/model/errors.js";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";
import {
  decodeScheduleArrow,
  decodeScheduleArrowWithHeader,
  encodeScheduleArrow,
  flatbufferCopies,
  readScheduleArrowHeader,
} from "../../src/io/schedule-arrow.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { matrixArb } from "../helpers/arbitraries.js";
import { handSchedule } from "../helpers/schedule-edit.js";

/** Plans m with the planner, or null when the planner does not take this matrix. */
function tryPlan(m: Parameters<typeof plan>[0], name: string, payload: boolean): Schedule | null {
  try {
    return plan(m, name, { seed: 7, payload });
  } catch (e) {
    if (isCommplanError(e)) return null;
    throw e;
  }
}

function expectSame(a: Schedule, b: Schedule): void {
  expect(scheduleToJsonText(b)).toBe(scheduleToJsonText(a));
  expect(b.stepStart).toEqual(a.stepStart);
  expect(b.stallStart).toEqual(a.stallStart);
  expect(b.stallNode).toEqual(a.stallNode);
  expect(b.chunks === null).toBe(a.chunks === null);
  if (a.chunks !== null) expect(b.chunks).toEqual(a.chunks);
}

/** A builder of a hand-made schedule of P nodes (header: algorithm "hand", 8-byte elements, no matrix digest). */
function handBuilder(p: number, payload: boolean): ScheduleBuilder {
  return new ScheduleBuilder(
    { p, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: "" },
    payload,
  );
}

/** The file of table t with some columns replaced (by name), and its schema metadata replaced when `meta` is given. */
function withColumns(
  t: Table,
  replace: { readonly [name: string]: Vector },
  meta: Map<string, string> = t.schema.metadata,
): Uint8Array {
  const columns = Object.fromEntries(t.schema.fields.map((f) => [f.name, replace[f.name] ?? t.getChild(f.name)!]));
  const made = new Table(columns);
  return tableToIPC(new Table(new Schema(made.schema.fields, meta), made.batches), "file");
}

/**
 * Flatbuffer navigation in the bytes of an Arrow IPC file, for the tests that damage one field: a
 * table at t starts with the offset back to its vtable, field f's offset is at vtable + 4 + 2 f.
 * `message`: the first record batch's Message table; `batchVector(f)`: where vector f of its
 * RecordBatch header is (1: field nodes, 2: buffers; the length word first).
 */
function flatbuffers(bytes: Buffer): {
  field(table: number, f: number): number;
  deref(at: number): number;
  message: number;
  batchVector(f: number): number;
} {
  const field = (table: number, f: number): number => {
    const vtable = table - bytes.readInt32LE(table);
    return table + bytes.readUInt16LE(vtable + 4 + 2 * f);
  };
  const deref = (at: number): number => at + bytes.readUInt32LE(at);
  const reader = RecordBatchReader.from(bytes);
  reader.open();
  const footer = (reader as unknown as { footer: { getRecordBatch(i: number): { offset: number } } }).footer;
  // the block starts 0xffffffff, the metadata length, then the offset of the Message table
  const message = deref(footer.getRecordBatch(0).offset + 8);
  return { field, deref, message, batchVector: (f) => deref(field(deref(field(message, 2)), f)) };
}

describe("schedule arrow", () => {
  for (const planner of PLANNERS) {
    it(`${planner.name}: decode(encode(s)) is s, and verifies, over random matrices (with and without payloads)`, () => {
      let planned = 0;
      fc.assert(
        fc.property(
          // te-* make a transfer per element (their plans at P = 20 take seconds): smaller for them
          matrixArb({
            maxP: planner.name.startsWith("te-") ? 10 : 20,
            kinds: ["dense", "sparse", "permutation", "empty-rows", "zero"],
          }),
          fc.boolean(),
          (m, payload) => {
            const s = tryPlan(m, planner.name, payload);
            if (s === null) return;
            planned++;
            const bytes = encodeScheduleArrow(s);
            const back = decodeScheduleArrow(bytes);
            expectSame(s, back);
            expectSame(s, decodeScheduleArrowWithHeader(bytes, { trusted: true }).schedule);
            // MPI's linear and scattered plans post several messages per node at once: a many-port machine
            expect(verifySchedule(m, back, { ports: planner.traits.mpi ? Infinity : 1 }).ok).toBe(true);
          },
        ),
        { numRuns: planner.name.startsWith("te-") ? 8 : 25, seed: 11 },
      );
      expect(planned).toBeGreaterThan(0);
    });
  }

  it("keeps stalls, empty steps, stages and times", () => {
    const b = new ScheduleBuilder(
      { p: 4, algorithm: "hand", params: { k: [1, "x"] }, seed: null, elementBytes: 8, matrixDigest: "abc" },
      true,
      4,
      true,
    );
    b.stage("one", "compose").step().transfer(0, 1, 3);
    b.chunk(0, 1, 0, 3).times(1, 2);
    b.step().stall(2).stall(3);
    b.stage("two", "collect").step();
    b.step().transfer(3, 2, 5);
    b.chunk(3, 2, 0, 2).chunk(1, 2, 4, 3).times(2.5, 7);
    const s = b.build();
    const back = decodeScheduleArrow(encodeScheduleArrow(s));
    expectSame(s, back);
    expectSame(s, decodeScheduleArrowWithHeader(encodeScheduleArrow(s), { trusted: true }).schedule);
    expect(back.times).toEqual(s.times);
    expect(back.stages).toEqual(s.stages);
  });

  it("writes typed columns a foreign reader sees, header as schema metadata", () => {
    const m = { p: 8, elementBytes: 8, data: new Float64Array(64).fill(3) };
    const s = plan(m, "four-stage", { payload: true });
    const t = tableFromIPC(encodeScheduleArrow(s));
    expect(t.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual([
      "stage:Uint8",
      "step:Uint8",
      "src:Int32",
      "dst:Int32",
      "size:Float64",
      "chunks:List<Struct<{origin:Int32, dest:Int32, offset:Float64, count:Float64}>>",
    ]);
    expect(t.numRows).toBe(s.transferCount);
    expect(JSON.parse(t.schema.metadata.get("commplan")!).algorithm).toBe("four-stage");
  });

  it("decodes without copying the columns (views of the file's buffer)", () => {
    const m = { p: 16, elementBytes: 8, data: new Float64Array(256).fill(1) };
    const bytes = encodeScheduleArrow(plan(m, "shift", {}));
    const back = decodeScheduleArrow(bytes);
    expect(back.src.buffer).toBe(bytes.buffer);
    expect(back.size.buffer).toBe(bytes.buffer);
  });

  it("refuses damaged or foreign bytes in one line", () => {
    const m = { p: 4, elementBytes: 8, data: new Float64Array(16).fill(1) };
    const bytes = encodeScheduleArrow(plan(m, "shift", {}));
    for (const bad of [bytes.subarray(0, bytes.length - 9), new TextEncoder().encode("{}"), new Uint8Array(0)]) {
      expect(() => decodeScheduleArrow(bad)).toThrow(/^schedule-arrow: /);
    }
  });

  it("refuses a file whose record-batch block holds a schema message (apache-arrow's tableFromIPC loops forever on it; found by the fuzzer)", () => {
    const m = { p: 4, elementBytes: 8, data: new Float64Array(16).fill(1) };
    const bytes = Buffer.from(encodeScheduleArrow(plan(m, "shift", {})));
    const { field, message } = flatbuffers(bytes);
    const headerType = field(message, 1); // Message.header_type
    expect(bytes[headerType]).toBe(3); // MessageHeader.RecordBatch
    bytes[headerType] = 1; // MessageHeader.Schema
    expect(() => decodeScheduleArrow(bytes)).toThrow(/^schedule-arrow: not an Arrow IPC file \(/);
    expect(() => readScheduleArrowHeader(bytes)).toThrow(/^schedule-arrow: not an Arrow IPC file \(/);
  });

  it("refuses a file whose footer claims more schema fields than its bytes hold (a damaged store entry whose footer claimed 655360 fields in 1184 bytes kept apache-arrow decoding for minutes, unfinished; found by the fuzzer)", () => {
    const m = { p: 4, elementBytes: 8, data: new Float64Array(16).fill(1) };
    const bytes = Buffer.from(encodeScheduleArrow(plan(m, "shift", {})));
    const { field, deref } = flatbuffers(bytes);
    const footerEnd = bytes.length - 10;
    const footer = deref(footerEnd - bytes.readInt32LE(footerEnd));
    const fields = deref(field(deref(field(footer, 1)), 1)); // Footer.schema, then Schema.fields
    expect(bytes.readUInt32LE(fields)).toBe(5); // stage, step, src, dst, size (no chunks without a payload)
    bytes.writeUInt32LE(655360, fields);
    expect(() => decodeScheduleArrow(bytes)).toThrow(
      /^schedule-arrow: not an Arrow IPC file \(a metadata vector of 655360 elements passes the end of its \d+-byte buffer\)/,
    );
    expect(() => readScheduleArrowHeader(bytes)).toThrow(/^schedule-arrow: not an Arrow IPC file \(/);
  });
});

describe("the flatbuffers guard", () => {
  it("finds the flatbuffers copy apache-arrow loads, whether or not npm deduped it with commplan's", () => {
    const require = createRequire(import.meta.url);
    const arrowsCopy = createRequire(require.resolve("apache-arrow")).resolve("flatbuffers");
    expect(flatbufferCopies()).toContain(arrowsCopy);
  });

  it("leaves flatbuffers unpatched: after import, after a decode and after a refused one", () => {
    const require = createRequire(import.meta.url);
    const protos = flatbufferCopies().map(
      (file) => (require(file) as { ByteBuffer: { prototype: { __vector_len: unknown } } }).ByteBuffer.prototype,
    );
    const unchecked = (): void => {
      for (const proto of protos) expect((proto.__vector_len as { name: string }).name).not.toBe("checkedVectorLength");
    };
    unchecked();
    const m = { p: 4, elementBytes: 8, data: new Float64Array(16).fill(2) };
    const bytes = encodeScheduleArrow(plan(m, "two-stage", { payload: true }));
    decodeScheduleArrow(bytes);
    unchecked();
    expect(() => decodeScheduleArrow(bytes.subarray(0, bytes.length - 20))).toThrow(/^schedule-arrow: /);
    unchecked();
  });
});

describe("the stage and step columns", () => {
  it("writes stage and step in the narrowest unsigned type that holds them (1, 2 or 4 bytes a row)", () => {
    const steps = (k: number): Schedule =>
      handSchedule(
        2,
        Array.from({ length: k }, (): [number, number, number][] => [[0, 1, 1]]),
      );
    for (const [k, type] of [
      [256, "Uint8"],
      [257, "Uint16"],
      [65536, "Uint16"],
      [65537, "Uint32"],
    ] as const) {
      const s = steps(k);
      const bytes = encodeScheduleArrow(s);
      expect(String(tableFromIPC(bytes).schema.fields[1]!.type)).toBe(type);
      const back = decodeScheduleArrow(bytes);
      expect(back.stepStart).toEqual(s.stepStart);
      expect(decodeScheduleArrowWithHeader(bytes, { trusted: true }).schedule.stepStart).toEqual(s.stepStart);
    }
  });

  it("reads a v1 file (stage and step as int32), as earlier commplan versions and plan stores wrote them", () => {
    const m = { p: 8, elementBytes: 8, data: new Float64Array(64).fill(3) };
    const s = plan(m, "two-stage", { payload: true });
    const t = tableFromIPC(encodeScheduleArrow(s));
    const header = JSON.parse(t.schema.metadata.get("commplan")!) as Record<string, unknown>;
    const v1 = (name: string): Vector => makeVector(Int32Array.from(t.getChild(name)!.toArray() as ArrayLike<number>));
    const meta = new Map([["commplan", JSON.stringify({ ...header, format: "commplan.schedule-arrow/v1" })]]);
    const bytes = withColumns(t, { stage: v1("stage"), step: v1("step") }, meta);
    expect(String(tableFromIPC(bytes).schema.fields[0]!.type)).toBe("Int32");
    const back = decodeScheduleArrow(bytes);
    expect(back.stepStart).toEqual(s.stepStart);
    expect(back.chunks).toEqual(s.chunks);
    expect(verifySchedule(m, back).ok).toBe(true);
    // the plan store's trusted decode of its v1 entries
    const trusted = decodeScheduleArrowWithHeader(bytes, { trusted: true }).schedule;
    expect(trusted.stepStart).toEqual(s.stepStart);
    expect(trusted.chunks).toEqual(s.chunks);
  });

  it("refuses a step column that is not an integer of at most 32 bits, naming it", () => {
    const m = { p: 4, elementBytes: 8, data: new Float64Array(16).fill(1) };
    const t = tableFromIPC(encodeScheduleArrow(plan(m, "shift", {})));
    const wide = makeVector(BigInt64Array.from(t.getChild("step")!.toArray() as ArrayLike<number>, BigInt));
    const bytes = withColumns(t, { step: wide });
    expect(() => decodeScheduleArrow(bytes)).toThrow(
      /^schedule-arrow: .*column 'step' is Int64, expected an integer of at most 32 bits/,
    );
  });
});

describe("damaged or unusual files", () => {
  it("refuses a stage column that contradicts the header's stages (checked decode)", () => {
    const b = handBuilder(5, false);
    b.stage("a").step().transfer(0, 1, 1);
    b.transfer(1, 2, 1);
    b.stage("b").step().transfer(2, 3, 1);
    const t = tableFromIPC(encodeScheduleArrow(b.build()));
    for (const stage of [new Uint8Array([1, 1, 0]), new Int8Array([-1, 0, 1]), new Uint32Array([0, 0, 7])]) {
      expect(() => decodeScheduleArrow(withColumns(t, { stage: makeVector(stage) }))).toThrow(
        /^schedule-arrow: transfer \d: stage -?\d+, but its step is in stage \d$/,
      );
    }
  });

  it("refuses a column whose values buffer is shorter than its rows (a damaged buffer length)", () => {
    const s5 = handSchedule(5, [
      [
        [0, 1, 1],
        [1, 2, 1],
        [2, 3, 1],
      ],
      [
        [3, 4, 1],
        [4, 0, 1],
      ],
    ]);
    const bytes = Buffer.from(encodeScheduleArrow(s5));
    const buffers = flatbuffers(bytes).batchVector(2);
    // buffers: validity and values of stage, then of step: the step column's values are buffer 3
    bytes.writeBigInt64LE(2n, buffers + 4 + 16 * 3 + 8);
    expect(() => decodeScheduleArrow(bytes)).toThrow(
      /^schedule-arrow: column 'step' holds fewer values than its 5 rows$/,
    );
  });

  it("decodes a payload plan's schema with no record batch as an empty schedule", () => {
    const b = handBuilder(5, true);
    b.stage("a").step();
    const t = tableFromIPC(encodeScheduleArrow(b.build()));
    const w = new RecordBatchFileWriter();
    w.reset(undefined, t.schema);
    w.close();
    const back = decodeScheduleArrow(w.toUint8Array(true));
    expect(back.transferCount).toBe(0);
    expect(back.chunks?.origin.length).toBe(0);
    expect(Array.from(back.stepStart)).toEqual([0, 0]);
  });

  it("refuses header stages that do not cover stepCount (the stage check would skip the rest)", () => {
    const t = tableFromIPC(encodeScheduleArrow(handSchedule(3, [[[0, 1, 1]], [[1, 2, 1]]])));
    const h = JSON.parse(t.schema.metadata.get("commplan")!) as { stages: { stepCount: number }[] };
    for (const stepCount of [1, 5]) {
      const meta = new Map([["commplan", JSON.stringify({ ...h, stages: [{ ...h.stages[0]!, stepCount }] })]]);
      expect(() => decodeScheduleArrow(withColumns(t, {}, meta))).toThrow(
        new RegExp(`^schedule-arrow: the metadata's stages cover ${stepCount} steps, not stepCount = 2$`),
      );
    }
  });

  it("refuses chunk fields of unequal lengths (a damaged field node: apache-arrow checks only the top-level columns)", () => {
    const b = handBuilder(5, true);
    b.stage("a").step();
    for (let i = 0; i < 3; i++) {
      b.transfer(i, i + 1, 1);
      b.chunk(i, i + 1, 0, 1);
    }
    const bytes = Buffer.from(encodeScheduleArrow(b.build()));
    // field nodes: 0 stage, 1 step, 2 src, 3 dst, 4 size, 5 chunks, 6 its struct, 7 origin, 8 dest, 9 offset, 10 count
    const nodes = flatbuffers(bytes).batchVector(1);
    expect(bytes.readBigInt64LE(nodes + 4 + 16 * 8)).toBe(3n);
    bytes.writeBigInt64LE(2n, nodes + 4 + 16 * 8);
    expect(() => decodeScheduleArrow(bytes)).toThrow(/^schedule-arrow: chunks\.dest has 2 entries, chunks\.origin 3$/);
  });
});
