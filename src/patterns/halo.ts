/**
 * halo: the halo (ghost-cell) exchange of a 2D or 3D stencil code on a Cartesian process grid (faces, edges, corners;
 * periodic or not).
 */
import { integer } from "../model/param-spec.js";
import { matrixFromCoordinates } from "../model/matrix.js";
import { checkMemory } from "../model/memory-budget.js";
import { memoryBudgetOf } from "../host/memory.js";
import { elementBytesOption, definePattern, optionAgainstP } from "./pattern-options.js";
import { dimsCreate } from "./process-grid.js";
import type { PatternOptionSpec } from "./types.js";
import { checkArg, isIntIn } from "../model/option-checks.js";

/** A local subdomain size option. */
function side(axis: string, note = ""): PatternOptionSpec {
  return integer({
    description: `local subdomain size along ${axis}${note}`,
    min: 1,
    max: 1 << 16,
    unit: "cells",
    default: 64,
  });
}
/** A process grid side option. */
function procs(axis: string): PatternOptionSpec {
  return integer({
    description: `processes along ${axis}; 0 = factored from p (balanced, as MPI_Dims_create)`,
    min: 0,
    max: 1 << 20,
    unit: "ranks",
    default: 0,
  });
}

const options = {
  dims: integer({ description: "dimensions of the domain decomposition: 2 or 3", min: 2, max: 3, default: 3 }),
  neighbours: integer({
    description:
      "stencil neighbours: 2D 4 (faces) or 8 (and corners); 3D 6 (faces), 18 (and edges) or 26 (and corners); 0 = faces only",
    min: 0,
    max: 26,
    default: 0,
  }),
  px: procs("x"),
  py: procs("y"),
  pz: procs("z (3D only)"),
  nx: side("x"),
  ny: side("y"),
  nz: side("z", " (3D only)"),
  width: integer({
    description: "halo width (ghost layers), at most every local size",
    min: 1,
    max: 1 << 16,
    unit: "cells",
    default: 1,
  }),
  periodic: integer({
    description: "1: the grid wraps around in every dimension (a torus); 0: boundary ranks have fewer neighbours",
    min: 0,
    max: 1,
    default: 0,
  }),
  elementBytes: elementBytesOption(8),
} as const;

const ALLOWED: Readonly<Record<number, readonly number[]>> = { 2: [4, 8], 3: [6, 18, 26] };

/**
 * The neighbour offsets of a stencil: vectors in {-1, 0, 1}^dims with 1 .. maxNonzero nonzero components (faces 1,
 * edges 2, corners 3).
 */
export function haloNeighbours(dims: number, neighbours: number): Int8Array[] {
  checkArg("patterns", "haloNeighbours", "dims", dims, isIntIn(dims, 1, 3), "1, 2 or 3", "BAD_OPTION");
  checkArg(
    "patterns",
    "haloNeighbours",
    "neighbours",
    neighbours,
    isIntIn(neighbours, 1, 3 ** dims - 1),
    `an integer in 1..${3 ** dims - 1}`,
    "BAD_OPTION",
  );
  const maxNonzero = neighbours === 4 || neighbours === 6 ? 1 : neighbours === 18 ? 2 : dims;
  const out: Int8Array[] = [];
  for (let code = 0; code < 3 ** dims; code++) {
    const d = new Int8Array(dims);
    let c = code,
      nz = 0;
    for (let k = dims - 1; k >= 0; k--) {
      d[k] = (c % 3) - 1;
      c = Math.floor(c / 3);
      if (d[k] !== 0) nz++;
    }
    if (nz >= 1 && nz <= maxNonzero) out.push(d);
  }
  return out;
}

/**
 * The pattern `halo`. Ranks are numbered row-major over the grid (the last dimension fastest, as
 * MPI_Cart_create); rank at coordinates c sends to the rank at c + d for every stencil offset d
 * the block of cells that neighbour needs: width along every axis where d is nonzero, the local
 * size along the others (a face width x ny x nz, an edge width^2 x nz, a corner width^3). Periodic
 * grids wrap; several offsets reaching the same rank (grid sides of 1 or 2) add up, on the diagonal
 * too. No randomness.
 */
export const haloPattern = definePattern({
  name: "halo",
  title: "Halo exchange of a 2D / 3D stencil on a process grid (faces, edges, corners; periodic or not)",
  source:
    "MPI 4.0 sec 8.5 (MPI_Dims_create, MPI_Cart_create); LULESH 2.0 (Karlin et al., LLNL-TR-641973, 2013): 26-neighbour exchange",
  options,
  sparse: true,
  inapplicable: (opts) =>
    opts.dims === 2
      ? [
          ["pz", "is for 3D (dims 3); with dims 2 leave it out"],
          ["nz", "is for 3D (dims 3); with dims 2 leave it out"],
        ]
      : [],
  generate(p, opts, _rng, input = {}) {
    const dims = opts.dims;
    const neighbours = opts.neighbours === 0 ? (dims === 2 ? 4 : 6) : opts.neighbours;
    if (!ALLOWED[dims]!.includes(neighbours))
      optionAgainstP("halo", "neighbours", neighbours, p, `must be ${ALLOWED[dims]!.join(", ")} or 0 in ${dims}D`);
    const grid = dimsCreate("halo", p, [opts.px, opts.py, opts.pz].slice(0, dims));
    const size = [opts.nx, opts.ny, opts.nz].slice(0, dims);
    const small = Math.min(...size);
    if (opts.width > small)
      optionAgainstP("halo", "width", opts.width, p, `must be at most the smallest local size ${small}`);
    const offsets = haloNeighbours(dims, neighbours);
    const most = p * offsets.length;
    // coordinates (4 + 4 + 8 bytes per entry), then compressed rows (12)
    const maxMemory = memoryBudgetOf(input);
    checkMemory("patterns", most * 28 + p * 8, `the halo matrix's ${most} entries`, maxMemory, { field: "p" });
    const rowOf = new Uint32Array(most),
      colOf = new Uint32Array(most),
      valOf = new Float64Array(most);
    let n = 0;
    const blocks = offsets.map((d) => size.reduce((a, n, k) => a * (d[k] !== 0 ? opts.width : n), 1));
    const coord = new Int32Array(dims);
    for (let i = 0; i < p; i++) {
      for (let k = dims - 1, r = i; k >= 0; k--) {
        coord[k] = r % grid[k]!;
        r = Math.floor(r / grid[k]!);
      }
      for (let o = 0; o < offsets.length; o++) {
        let j = 0,
          inside = true;
        for (let k = 0; k < dims; k++) {
          let c = coord[k]! + offsets[o]![k]!;
          if (c < 0 || c >= grid[k]!) {
            if (opts.periodic === 0) inside = false;
            c = (c + grid[k]!) % grid[k]!;
          }
          j = j * grid[k]! + c;
        }
        if (!inside) continue;
        // several offsets reaching the same rank (grid sides of 1 or 2) add up
        let at = n - 1;
        while (at >= 0 && rowOf[at] === i && colOf[at] !== j) at--;
        if (at >= 0 && rowOf[at] === i) valOf[at] = valOf[at]! + blocks[o]!;
        else {
          rowOf[n] = i;
          colOf[n] = j;
          valOf[n++] = blocks[o]!;
        }
      }
    }
    return matrixFromCoordinates(p, rowOf, colOf, valOf, n, { elementBytes: opts.elementBytes, maxMemory });
  },
  notes(m, opts) {
    const grid = dimsCreate("halo", m.p, [opts.px, opts.py, opts.pz].slice(0, opts.dims));
    const n = opts.neighbours === 0 ? (opts.dims === 2 ? 4 : 6) : opts.neighbours;
    return [`process grid ${grid.join(" x ")}, ${n} neighbours, ${opts.periodic === 1 ? "periodic" : "not periodic"}`];
  },
});
