// Program JSON: the writer's output validates against program.v1, reads back to the same program (whole and split), and bad documents give one-line errors naming the field.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { programToJsonText, writeProgramJson, writeProgramSplit } from "../../src/io/program-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { matrixFromRows, toSparse } from "../../src/model/matrix.js";
import type { PeerIndex, Program } from "../../src/model/program.js";
import { plan } from "../../src/planner/registry.js";
import { verifyProgram } from "../../src/verifier/program/index.js";
import { runRounds } from "../lower/program-interpreter.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("program");
const m = matrixFromRows([
  [3, 1, 0, 2, 4],
  [0, 4, 5, 1, 0],
  [2, 2, 0, 3, 1],
  [1, 0, 6, 2, 2],
  [5, 1, 1, 0, 0],
]);

function same(a: Program, b: Program): void {
  const { layout: la, ops: oa, pieces: pa, ...ha } = a;
  const { layout: lb, ops: ob, pieces: pb, ...hb } = b;
  expect(hb).toEqual(ha);
  for (const k of Object.keys(la) as (keyof typeof la)[]) {
    const x = la[k],
      y = lb[k];
    if (x === null || y === null) expect(y, k).toBe(x);
    else if ("peer" in x)
      expect([Array.from((y as PeerIndex).start), Array.from((y as PeerIndex).peer)], k).toEqual([
        Array.from(x.start),
        Array.from(x.peer),
      ]);
    else expect(Array.from(y as Float64Array), k).toEqual(Array.from(x));
  }
  for (const k of Object.keys(oa) as (keyof typeof oa)[]) expect(Array.from(ob[k])).toEqual(Array.from(oa[k]));
  for (const k of Object.keys(pa) as (keyof typeof pa)[]) expect(Array.from(pb[k])).toEqual(Array.from(pa[k]));
}

/** A check that the reader refuses `program`'s document after `mutate`, with an error matching `msg`. */
function rejecter(program: () => Program, name: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mutations reach into the parsed document freely
  return (mutate: (d: any) => void, msg: RegExp): void => {
    const d = JSON.parse(programToJsonText(program())) as unknown;
    mutate(d);
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(d));
    expect(() => readProgramJson(file)).toThrow(msg);
  };
}

describe("commplan.program/v1", () => {
  for (const [name, payload, variant] of [
    ["two-stage", true, "blocking"],
    ["four-stage", true, "nonblocking"],
    ["shift", false, "blocking"],
  ] as const) {
    it(`${name} (${variant}): schema-valid, round trip whole and split, and the read program still runs`, async () => {
      const prog = lowerSchedule(m, plan(m, name, { payload }), { variant }).program;
      const text = programToJsonText(prog);
      expect(() => validateWithSchema("program", JSON.parse(text), "program")).not.toThrow();
      const file = join(dir, `${name}.json`);
      await writeProgramJson(prog, file);
      expect(readFileSync(file, "utf8")).toBe(text);
      const back = readProgramJson(file);
      expect(back.ranks).toEqual([0, 1, 2, 3, 4]);
      same(prog, back.program);
      expect(runRounds(m, back.program)).toBe(m.data.reduce((a, b) => a + b, 0));
      const split = join(dir, `${name}-split`);
      await writeProgramSplit(prog, split);
      expect(readdirSync(split).sort()).toEqual([
        "index.json",
        "rank-0.json",
        "rank-1.json",
        "rank-2.json",
        "rank-3.json",
        "rank-4.json",
      ]);
      same(prog, readProgramJson(join(split, "index.json")).program);
      const one = readProgramJson(join(split, "rank-3.json"));
      expect(one.ranks).toEqual([3]);
      expect(one.program.rankStart[3]).toBe(0);
      expect(one.program.rankStart[4]! - one.program.rankStart[3]!).toBe(prog.rankStart[4]! - prog.rankStart[3]!);
    });
  }

  it("a rank file that disagrees with its index names both values, cut to one short line (found by the fuzzer: a 5,000-character digest)", async () => {
    const split = join(dir, "digest-split");
    await writeProgramSplit(lowerSchedule(m, plan(m, "shift")).program, split);
    const rank = join(split, "rank-0.json");
    const doc = JSON.parse(readFileSync(rank, "utf8")) as { matrixDigest: string };
    doc.matrixDigest = "mm3x64:" + "[".repeat(5000);
    writeFileSync(rank, JSON.stringify(doc));
    let message = "";
    try {
      readProgramJson(join(split, "index.json"));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/rank-0\.json.*\/matrixDigest.*is "mm3x64:\[+\.\.\. \(5007 characters\), the index says /);
    expect(message.length).toBeLessThan(400);
    expect(message).not.toContain("\n");
  });

  const bad = rejecter(() => lowerSchedule(m, plan(m, "two-stage", { payload: true })).program, "bad.json");
  it("rejects bad documents with one line naming the field", () => {
    bad(
      (d) => (d.format = "commplan.schedule/v1"),
      /^program: .*bad\.json: \/format is "commplan.schedule\/v1", expected "commplan.program\/v1"/,
    );
    bad((d) => (d.ranks[1].ops[0][1] = "sned"), /^program: .*: \/ranks\/1\/ops\/0 /);
    bad((d) => (d.ranks[0].ops[0][2] = 9), /\/ranks\/0\/ops\/0\/2 peer 9 is not below p = 5|\/ranks\/0\/ops\/0\/3/);
    bad(
      (d) => (d.ranks[2].scratch = 0),
      /\/ranks\/2\/ops\/\d+\/\d+\/\d+ \(scratch, \d+, \d+\) leaves the scratch buffer of 0 elements/,
    );
    bad((d) => (d.ranks[1].rank = 0), /\/ranks\/1\/rank = 0 is not above the previous rank 0/);
    bad((d) => (d.ranks[0].sendCounts = [1]), /\/ranks\/0\/sendCounts has 1 entry, expected p = 5/);
    bad((d) => (d.rounds = 1), /round \d+ is not below rounds = 1/);
    bad(
      (d) => d.ranks[4].ops.push([d.rounds - 1, "send", 1, 0, 7, [["send", 0, 1]]]),
      /\/ranks\/4\/ops\/\d+\/5 hold 1 elements, the operation moves 7/,
    );
    bad((d) => (d.files = []), /^program: .*must match exactly one schema in oneOf/);
  });

  it("refuses broken JSON in one line naming the line (JSON.parse's message quotes the text, newlines and all; found by the fuzzer)", () => {
    const text = programToJsonText(lowerSchedule(m, plan(m, "two-stage", { payload: true })).program);
    const at = text.indexOf("\n", text.indexOf('"ops"'));
    for (const [broken, line] of [
      [text.slice(0, at) + "+j" + text.slice(at), text.slice(0, at).split("\n").length], // a stray token at the end of a line
      ["\ufeff" + text.slice(0, at + 1), text.slice(0, at + 1).split("\n").length], // the same after a UTF-8 byte-order mark
      [text.slice(0, at + 1), text.slice(0, at + 1).split("\n").length], // truncated after a newline
    ] as const) {
      const file = join(dir, "broken.json");
      writeFileSync(file, broken);
      let message = "";
      try {
        readProgramJson(file);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(new RegExp(`^program: .*broken\\.json:line ${line}: not valid JSON: `));
      expect(message).not.toContain("\n");
    }
  });
});

describe("commplan.program/v1 in the peer form", () => {
  const sparse = toSparse(m);
  it("the peer form (a sparse matrix's layout): schema-valid, each rank lists only its peers, round trip whole and split", async () => {
    const prog = lowerSchedule(sparse, plan(sparse, "two-stage", { payload: true }), { variant: "blocking" }).program;
    const text = programToJsonText(prog);
    const doc = JSON.parse(text) as { ranks: { sendPeers: number[]; sendCounts: number[]; recvPeers: number[] }[] };
    expect(() => validateWithSchema("program", doc, "program")).not.toThrow();
    // row 0 of m is [3, 1, 0, 2, 4]: rank 0 sends to 0 (itself), 1, 3 and 4, not to 2
    expect(doc.ranks[0]!.sendPeers).toEqual([0, 1, 3, 4]);
    expect(doc.ranks[0]!.sendCounts).toEqual([3, 1, 2, 4]);
    writeFileSync(join(dir, "peers.json"), text);
    const back = readProgramJson(join(dir, "peers.json"));
    same(prog, back.program);
    expect(verifyProgram(sparse, back.program).ok).toBe(true);
    const split = join(dir, "peers-split");
    await writeProgramSplit(prog, split);
    same(prog, readProgramJson(join(split, "index.json")).program);
    const one = readProgramJson(join(split, "rank-2.json")).program.layout;
    expect(Array.from(one.sendPeers!.start)).toEqual([
      0,
      0,
      0,
      doc.ranks[2]!.sendPeers.length,
      doc.ranks[2]!.sendPeers.length,
      doc.ranks[2]!.sendPeers.length,
    ]);
  });

  const badPeers = rejecter(() => lowerSchedule(sparse, plan(sparse, "shift")).program, "bad-peers.json");
  it("rejects bad peer lists with one line naming the field", () => {
    badPeers((d) => d.ranks[0].sendPeers.reverse(), /\/ranks\/0\/sendPeers\/1 = 3 is not above the peer before it, 4/);
    badPeers((d) => (d.ranks[0].sendPeers[2] = 5), /\/ranks\/0\/sendPeers\/2 = 5 is not below p = 5/);
    badPeers(
      (d) => (d.ranks[1].recvCounts = [1]),
      /\/ranks\/1\/recvCounts has 1 entry, expected one per entry of recvPeers, \d/,
    );
    badPeers(
      (d) => (d.ranks[0].sendCounts[0] = 0),
      /\/ranks\/0\/sendCounts\/0 is 0: the peer form lists only non-zero blocks/,
    );
    badPeers(
      (d) => delete d.ranks[0].recvPeers,
      /\/ranks\/0 must have property recvPeers when property sendPeers is present/,
    );
    badPeers((d) => {
      delete d.ranks[3].sendPeers;
      delete d.ranks[3].recvPeers;
    }, /\/ranks\/3\/sendPeers is missing: the ranks before it have the peer form/);
  });
});
