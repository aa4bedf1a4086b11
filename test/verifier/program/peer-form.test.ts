/** Program checks on the peer form of the layout: every mutant of a valid peer-form program's layout is caught. */
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../../src/lower/index.js";
import { matrixFromRows, toSparse } from "../../../src/model/matrix.js";
import type { PeerIndex, Program, RankLayout } from "../../../src/model/program.js";
import { plan } from "../../../src/planner/registry.js";
import { verifyProgram } from "../../../src/verifier/program/index.js";

const m = toSparse(
  matrixFromRows([
    [0, 2, 0, 3],
    [1, 0, 4, 0],
    [0, 5, 0, 6],
    [7, 0, 1, 2],
  ]),
);
const prog = lowerSchedule(m, plan(m, "shift")).program;

/** A copy of the program with a changed layout. */
function withLayout(change: (l: { -readonly [K in keyof RankLayout]: RankLayout[K] }) => void): Program {
  const copy = (x: PeerIndex | null): PeerIndex | null =>
    x === null ? null : { start: x.start.slice(), peer: x.peer.slice() };
  const l = {
    ...prog.layout,
    sendCounts: prog.layout.sendCounts.slice(),
    recvCounts: prog.layout.recvCounts.slice(),
    sendDispls: prog.layout.sendDispls.slice(),
    recvDispls: prog.layout.recvDispls.slice(),
    sendPeers: copy(prog.layout.sendPeers),
    recvPeers: copy(prog.layout.recvPeers),
  };
  change(l);
  return { ...prog, layout: l };
}

const failed = (p: Program): string[] =>
  verifyProgram(m, p)
    .checks.filter((c) => !c.holds)
    .map((c) => `${c.id}: ${c.witness}`);

describe("the peer form under the program checks", () => {
  it("the lowered program passes", () => {
    expect(prog.layout.sendPeers).not.toBeNull();
    expect(failed(prog)).toEqual([]);
  });

  const mutants: [string, (l: { -readonly [K in keyof RankLayout]: RankLayout[K] }) => void, RegExp][] = [
    [
      "a peer dropped (rank 0 forgets its block for 3)",
      (l) => {
        const { start, peer } = l.sendPeers!;
        l.sendPeers = {
          start: start.map((v, r) => (r >= 1 ? v - 1 : v)),
          peer: Uint32Array.from([peer[0]!, ...peer.subarray(2)]),
        };
        l.sendCounts = Float64Array.from([l.sendCounts[0]!, ...l.sendCounts.subarray(2)]);
        l.sendDispls = Float64Array.from([l.sendDispls[0]!, ...l.sendDispls.subarray(2)]);
      },
      /^program-well-formed: layout.sendPeers: rank 0 lists no block for 3, but M\[0\]\[3\] = 3/,
    ],
    [
      "a count changed",
      (l) => (l.recvCounts[0] = 9),
      /^program-well-formed: layout.recvCounts of rank 0 for 1 = 9, but M\[1\]\[0\] = 1/,
    ],
    [
      "a peer named that M has no block for (rank 0 lists 2 and 3, M's row 0 is 1 and 3)",
      (l) => (l.sendPeers!.peer[0] = 2),
      /^program-well-formed: layout.sendPeers: rank 0 lists no block for 1, but M\[0\]\[1\] = 2/,
    ],
    [
      "peers out of order",
      (l) => {
        l.recvPeers!.peer[0] = 3;
        l.recvPeers!.peer[1] = 1;
      },
      /^program-well-formed: layout.recvPeers: rank 0 lists peer 1 after 3 \(peers must ascend\)/,
    ],
    [
      "one side full, the other peers",
      (l) => (l.sendPeers = null),
      /^program-well-formed: layout: one side has the peer form and the other the full form/,
    ],
    [
      "overlapping receive blocks",
      (l) => (l.recvDispls[1] = 0),
      /^program-well-formed: rank 0: recv blocks of 1 and 3 overlap \(at 0 and 0\)/,
    ],
    [
      "a receive block moved to free space (the program still writes the old place)",
      (l) => {
        l.recvSize[3] = l.recvSize[3]! + 10;
        const k = l.recvPeers!.start[4]! - 1; // rank 3's last block: its own 2 elements, at 9
        l.recvDispls[k] = l.recvDispls[k]! + 10;
      },
      /^program-delivery: rank 3 recv\[19\] holds nothing, expected \(3, 3, 0\)/,
    ],
  ];
  for (const [name, change, witness] of mutants)
    it(`catches ${name}`, () => {
      const found = failed(withLayout(change));
      expect(found.length, found.join("\n")).toBeGreaterThan(0);
      expect(found[0]).toMatch(witness);
    });
});
