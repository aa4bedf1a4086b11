/** halo: hand-computed 2D and 3D exchanges, neighbour counts at corners / edges / faces, symmetry, the process grid, scale and option errors. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixToRows } from "../../src/model/matrix.js";
import { dimsCreate, generatePattern, generatePatternWithNotes } from "../../src/patterns/index.js";
import { errorOf } from "../helpers/errors.js";

/** Distinct destinations of every rank. */
const fanOut = (m: { p: number; data: Float64Array }): number[] =>
  Array.from(
    { length: m.p },
    (_, i) => Array.from(m.data.subarray(i * m.p, (i + 1) * m.p)).filter((v) => v > 0).length,
  );

describe("halo", () => {
  it("2 x 2 periodic, 4 neighbours: both x faces reach the same rank (2 x ny), both y faces too (2 x nx)", () => {
    const r = generatePatternWithNotes("halo", 4, { dims: 2, nx: 3, ny: 5, periodic: 1 }, 1);
    expect(matrixToRows(r.matrix)).toEqual([
      [0, 6, 10, 0],
      [6, 0, 0, 10],
      [10, 0, 0, 6],
      [0, 10, 6, 0],
    ]);
    expect(r.notes).toEqual(["process grid 2 x 2, 4 neighbours, periodic"]);
  });

  it("2 x 2 not periodic, 8 neighbours, width 2: one x face (2 x 5), one y face (2 x 3), one corner (2 x 2)", () => {
    const m = generatePattern("halo", 4, { dims: 2, nx: 3, ny: 5, width: 2, neighbours: 8 }, 1);
    expect(matrixToRows(m)[0]).toEqual([0, 6, 10, 4]);
  });

  it("3 x 3 not periodic: corners 2 / edges 3 / centre 4 neighbours (faces); 3 / 5 / 8 with corners", () => {
    expect(fanOut(generatePattern("halo", 9, { dims: 2 }, 1))).toEqual([2, 3, 2, 3, 4, 3, 2, 3, 2]);
    expect(fanOut(generatePattern("halo", 9, { dims: 2, neighbours: 8 }, 1))).toEqual([3, 5, 3, 5, 8, 5, 3, 5, 3]);
  });

  it("3 x 3 x 3 not periodic: a corner rank has 3 / 6 / 7 neighbours and the centre 6 / 18 / 26", () => {
    for (const [n, corner] of [
      [6, 3],
      [18, 6],
      [26, 7],
    ] as const) {
      const f = fanOut(generatePattern("halo", 27, { neighbours: n, nx: 4, ny: 4, nz: 4 }, 1));
      expect([f[0], f[13]]).toEqual([corner, n]);
    }
  });

  it("3D blocks: face width x n x n, edge width^2 x n, corner width^3 (periodic 3 x 3 x 3, 26 neighbours)", () => {
    const m = generatePattern("halo", 27, { neighbours: 26, nx: 2, ny: 3, nz: 5, width: 1, periodic: 1 }, 1);
    const row = matrixToRows(m)[13]!; // centre (1, 1, 1)
    expect(row[4]).toBe(3 * 5); // (0, 1, 1): x face
    expect(row[12]).toBe(2 * 3); // (1, 1, 0): z face
    expect(row[1]).toBe(5); // (0, 0, 1): x-y edge, along z
    expect(row[0]).toBe(1); // (0, 0, 0): corner
    expect(row.reduce((a, b) => a + b, 0)).toBe(2 * (15 + 10 + 6) + 4 * (5 + 3 + 2) + 8);
  });

  it("periodic grids of sides >= 3: every rank has exactly `neighbours` destinations; M is symmetric (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<[number, number, number[]]>(
          [2, 4, [3, 4]],
          [2, 8, [5, 3]],
          [3, 6, [3, 3, 4]],
          [3, 18, [4, 3, 3]],
          [3, 26, [3, 3, 3]],
        ),
        fc.integer({ min: 1, max: 3 }),
        ([dims, neighbours, grid], width) => {
          const p = grid.reduce((a, b) => a * b, 1);
          const o = {
            dims,
            neighbours,
            px: grid[0]!,
            py: grid[1]!,
            width,
            nx: 4,
            ny: 5,
            ...(dims === 3 ? { pz: grid[2]!, nz: 6 } : {}),
            periodic: 1,
          };
          const m = generatePattern("halo", p, o, 1);
          expect(fanOut(m)).toEqual(new Array(p).fill(neighbours));
          for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) expect(m.data[i * p + j]).toBe(m.data[j * p + i]);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("factors P like MPI_Dims_create (balanced, non-increasing) and keeps given sides", () => {
    expect(dimsCreate("halo", 12, [0, 0, 0])).toEqual([3, 2, 2]);
    expect(dimsCreate("halo", 16384, [0, 0, 0])).toEqual([32, 32, 16]);
    expect(dimsCreate("halo", 7, [0, 0])).toEqual([7, 1]);
    expect(dimsCreate("halo", 24, [0, 3, 0])).toEqual([4, 3, 2]);
    expect(generatePatternWithNotes("halo", 6, { dims: 2, px: 1 }, 1).notes[0]).toMatch(/^process grid 1 x 6,/);
  });

  it("uses no randomness", () => {
    expect(Array.from(generatePattern("halo", 8, {}, 1).data)).toEqual(
      Array.from(generatePattern("halo", 8, {}, 77).data),
    );
  });

  it("refuses bad options in one line naming the option", () => {
    expect(errorOf(() => generatePattern("halo", 4, { dims: 2, neighbours: 26 }, 1)).message).toBe(
      "patterns: option 'neighbours' of pattern 'halo' must be 4, 8 or 0 in 2D (p = 4), got 26",
    );
    expect(errorOf(() => generatePattern("halo", 8, { px: 3 }, 1)).message).toBe(
      "patterns: option 'px' of pattern 'halo' must divide p (p = 8), got 3",
    );
    expect(errorOf(() => generatePattern("halo", 8, { px: 2, py: 2, pz: 1 }, 1)).message).toBe(
      "patterns: option 'px' of pattern 'halo' times py = 2 times pz = 1 (4) must equal p (p = 8), got 2",
    );
    expect(errorOf(() => generatePattern("halo", 8, { width: 9, nx: 8 }, 1)).message).toContain("option 'width'");
    expect(errorOf(() => generatePattern("halo", 8, { dims: 4 }, 1)).message).toContain("option 'dims'");
    // a z option given in 2D was dropped without a word
    for (const [name, value] of [
      ["pz", 2],
      ["nz", 64],
    ] as const) {
      const e = errorOf(() => generatePattern("halo", 16, { dims: 2, [name]: value }, 1));
      expect({ message: e.message, field: e.place.field }).toEqual({
        message: `patterns: option '${name}' of pattern 'halo' is for 3D (dims 3); with dims 2 leave it out`,
        field: name,
      });
    }
    expect(generatePattern("halo", 16, { pz: 2, nz: 8 }, 1).p).toBe(16);
  });
});

describe("halo at the largest P", () => {
  it("p = 2^14 with 26 neighbours, periodic: grid 32 x 32 x 16, every sampled rank sends 26 blocks", () => {
    const p = 16384;
    const { matrix: m, notes } = generatePatternWithNotes(
      "halo",
      p,
      { neighbours: 26, periodic: 1, nx: 8, ny: 8, nz: 8 },
      1,
    );
    expect(notes).toEqual(["process grid 32 x 32 x 16, 26 neighbours, periodic"]);
    const rowSum = 6 * 64 + 12 * 8 + 8; // faces 1 x 8 x 8, edges 1 x 1 x 8, corners 1
    for (const i of [0, 1, 511, 8192, p - 1]) {
      const row = m.data.subarray(i * p, (i + 1) * p);
      expect(row.filter((v) => v > 0).length).toBe(26);
      expect(row.reduce((a, b) => a + b, 0)).toBe(rowSum);
    }
  });
});
