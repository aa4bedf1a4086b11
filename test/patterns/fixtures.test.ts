import { describe, it, expect } from "vitest";
import { matrixStats } from "../../src/model/matrix-stats.js";
import { entry } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/index.js";

describe("ranka-fig1 (000 figure 1)", () => {
  const m = generatePattern("ranka-fig1", 8, {}, 0);
  const s = matrixStats(m);

  it("has every row sum and every column sum equal to 10, as printed beside the figure", () => {
    expect(Array.from(s.rowTraffic)).toEqual([10, 10, 10, 10, 10, 10, 10, 10]);
    expect(Array.from(s.colTraffic)).toEqual([10, 10, 10, 10, 10, 10, 10, 10]);
    expect(s.t).toBe(10);
  });

  it("has an empty diagonal and the printed entries (spot checks)", () => {
    expect(s.selfTotal).toBe(0);
    expect(entry(m, 6, 4)).toBe(7); // the largest entry of the figure
    expect(s.mMax).toBe(7);
    expect(entry(m, 2, 0)).toBe(4);
    expect(entry(m, 3, 7)).toBe(4);
    expect(entry(m, 0, 3)).toBe(0);
    expect(Array.from(s.fanOut)).toEqual([6, 6, 5, 4, 4, 5, 3, 5]);
  });

  it("is all-to-many (every node sends)", () => {
    expect(s.classification).toBe("all-to-many");
  });
});

describe("wang-table1 (003 table 1)", () => {
  const m = generatePattern("wang-table1", 8, {}, 0);
  const s = matrixStats(m);

  it("matches the facts the text states about the table", () => {
    expect(s.fanOut[0]).toBe(3); // "P_0 sends only three messages"
    expect(s.fanOut[4]).toBe(5); // "P_4 sends five messages"
    const senders = [0, 1, 2, 3, 4, 5, 6, 7].filter((i) => entry(m, i, 2) > 0);
    expect(senders).toEqual([0, 1, 3, 4, 6]); // "P_0, P_1, P_3, P_4 and P_6 all try to send messages to processor P_2"
    expect(s.selfTotal).toBe(0);
    expect(s.messages).toBe(32);
  });

  it("scales every message by unit", () => {
    const u = generatePattern("wang-table1", 8, { unit: 16 }, 0);
    for (let k = 0; k < 64; k++) expect(u.data[k]).toBe(m.data[k]! * 16);
  });
});
