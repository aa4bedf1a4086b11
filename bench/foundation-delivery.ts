/** Foundation bench, delivery worst case: one message cut into N one-element chunks, then passed whole N times (P = 3). */
import { matrixDigest, matrixFromData } from "../src/model/matrix.js";
import { ScheduleBuilder } from "../src/model/schedule.js";
import { checkDelivery } from "../src/verifier/delivery.js";
import { bestOfMs } from "./lib.js";

/** One row: chunks, best-of time of the delivery check, and the run visits it counted. */
export interface DeliveryCase {
  n: number;
  chunks: number;
  deliveryMs: number;
  runVisits: number;
  visitsPerChunk: number;
}

/** Message 0 -> 2 of n elements: n one-element transfers 0 -> 1, then n (odd) whole passes between 1 and 2. */
export function deliveryWorstCase(n: number): DeliveryCase {
  const data = new Float64Array(9);
  data[2] = n;
  const m = matrixFromData(3, data);
  const b = new ScheduleBuilder(
    { p: 3, algorithm: "bench", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) },
    true,
    2 * n,
  );
  for (let k = 0; k < n; k++) {
    b.step().transfer(0, 1, 1);
    b.chunk(0, 2, k, 1);
  }
  const passes = n % 2 === 1 ? n : n + 1;
  for (let k = 0; k < passes; k++) {
    b.step().transfer(k % 2 === 0 ? 1 : 2, k % 2 === 0 ? 2 : 1, n);
    b.chunk(0, 2, 0, n);
  }
  const s = b.build();
  const r = bestOfMs(() => checkDelivery(m, s));
  if (!r.value.delivery.holds || !r.value.causality.holds)
    throw new Error("bench: the ping-pong schedule does not verify");
  const chunks = n + passes;
  return { n, chunks, deliveryMs: r.ms, runVisits: r.value.runVisits, visitsPerChunk: r.value.runVisits / chunks };
}
