/**
 * The store's own reader of its entries decodes what apache-arrow's decoder decodes from the same sealed bytes, leaves
 * any other layout to it (null), and answers changed bytes with a result, null or a refusal, never another error.
 */
import { isDeepStrictEqual } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { RecordBatch, Schema, Table, tableFromIPC, tableToIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { decodeScheduleArrowWithHeader, encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { plan } from "../../src/planner/registry.js";
import { generatePattern } from "../../src/patterns/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import type { JsonValue, Schedule } from "../../src/model/schedule.js";
import { decodeSealedEntry } from "../../src/store/entry-arrow.js";
import { loadPlanById } from "../../src/store/entry-read.js";
import { SEAL_KEY, SEAL_PLACEHOLDER, sealBytes } from "../../src/store/entry-seal.js";
import { getPlanById, openPlanStore, resolveStoreRequest } from "../../src/store/index.js";
import { entryFile } from "../../src/store/store-dir.js";
import { matrixArb } from "../helpers/arbitraries.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A schedule with times on every transfer (as a realised trace carries them). */
function timed(s: Schedule): Schedule {
  const start = Float64Array.from(s.src, (_, x) => x);
  return { ...s, times: { start, end: start.map((t, x) => t + (x % 3)) } };
}

/** Entry bytes as addPlan writes them (the store's header fields, the seal). */
function entryBytes(s: Schedule, key: JsonValue = {}): Uint8Array {
  const bytes = encodeScheduleArrow(s, { store: { id: "x", key } }, { [SEAL_KEY]: SEAL_PLACEHOLDER });
  sealBytes(bytes);
  return bytes;
}

const byArrow = (b: Uint8Array): ReturnType<typeof decodeScheduleArrowWithHeader> =>
  decodeScheduleArrowWithHeader(b, { trusted: true });

describe("the store's entry reader", () => {
  it("decodes an entry as apache-arrow's decoder does: message and element plans, with and without times", () => {
    fc.assert(
      fc.property(
        matrixArb({ maxP: 9 }),
        fc.constantFrom("shift", "coloring", "four-stage", "two-stage"),
        fc.boolean(),
        fc.boolean(),
        (m, algorithm, payload, withTimes) => {
          const s = plan(m, algorithm, { payload, seed: 1 });
          const bytes = entryBytes(withTimes ? timed(s) : s);
          const lean = decodeSealedEntry(bytes);
          expect(lean).not.toBeNull();
          expect(isDeepStrictEqual(lean, byArrow(bytes))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("leaves a file of two record batches to apache-arrow, and the store serves it all the same", async () => {
    const m = generatePattern("h-relation", 8, { h: 2 }, 3);
    const r = resolveStoreRequest(m, "four-stage", { payload: true, seed: 1 });
    const s = plan(m, "four-stage", { payload: true, seed: 1 });
    const one = entryBytes(s, r.key as unknown as JsonValue);
    const table = tableFromIPC(one);
    const schema = new Schema(table.schema.fields, new Map(table.schema.metadata).set(SEAL_KEY, SEAL_PLACEHOLDER));
    const batch = table.batches[0]!;
    const k = Math.floor(batch.numRows / 2);
    const halves = [batch.slice(0, k), batch.slice(k)].map((b) => new RecordBatch(schema, b.data));
    const two = tableToIPC(new Table(schema, halves), "file");
    sealBytes(two);
    expect(decodeSealedEntry(two)).toBeNull();
    expect(decodeSealedEntry(one)).not.toBeNull();
    const store = openPlanStore(join(tempDir("entry"), "s"), true);
    const file = entryFile(store, r.id);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, two);
    const want = byArrow(one).schedule;
    expect(isDeepStrictEqual(getPlanById(store, r.id), want)).toBe(true);
    expect(isDeepStrictEqual(await loadPlanById(store, r.id), want)).toBe(true);
  });

  it("answers a changed byte anywhere with a plan, null or a refusal (never another error)", () => {
    const m = generatePattern("h-relation", 6, { h: 2 }, 1);
    const bytes = entryBytes(plan(m, "four-stage", { payload: true, seed: 1 }));
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, xor) => {
        const b = bytes.slice();
        b[at]! ^= xor;
        try {
          decodeSealedEntry(b);
        } catch (e) {
          expect(isCommplanError(e)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
