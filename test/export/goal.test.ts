// GOAL export: an independent grammar checker (every line parsed, labels defined before use, sends and receives matched) and an execution of the dependencies with rendezvous messages, for every planner and every variant.
import { describe, expect, it } from "vitest";
import { goalText } from "../../src/export/goal.js";
import { everyPlannerCase } from "./export-cases.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";

interface GoalOp {
  kind: "send" | "recv" | "calc";
  bytes: number;
  peer: number;
  tag: number;
  requires: number[];
  irequires: number[];
}

/** Parses GOAL text with the grammar of LogGOPSim's txt2bin; throws naming the line on anything else. */
export function parseGoal(text: string): GoalOp[][] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let p = -1;
  const ranks: GoalOp[][] = [];
  let cur: GoalOp[] | null = null;
  let labels = new Map<string, number>();
  lines.forEach((raw, i) => {
    const where = `line ${i + 1}: '${raw}'`;
    const line = raw.trim();
    let m: RegExpExecArray | null;
    if (line.startsWith("//") || line === "") return;
    if ((m = /^num_ranks (\d+)$/.exec(line))) {
      if (p !== -1 || cur !== null) throw new Error(`${where}: num_ranks twice or inside a rank`);
      p = Number(m[1]);
      return;
    }
    if ((m = /^rank (\d+) \{$/.exec(line))) {
      if (p < 1 || cur !== null || Number(m[1]) !== ranks.length)
        throw new Error(`${where}: rank out of order or nested`);
      cur = [];
      labels = new Map();
      return;
    }
    if (line === "}") {
      if (cur === null) throw new Error(`${where}: unmatched }`);
      ranks.push(cur);
      cur = null;
      return;
    }
    if (cur === null) throw new Error(`${where}: operation outside a rank`);
    const ops: GoalOp[] = cur;
    if ((m = /^([a-zA-Z][a-zA-Z0-9_]*): (?:(send|recv) (\d+)b (to|from) (\d+) tag (\d+)|calc (\d+))$/.exec(line))) {
      if (labels.has(m[1]!)) throw new Error(`${where}: label defined twice`);
      labels.set(m[1]!, ops.length);
      if (m[2] !== undefined) {
        if ((m[2] === "send") !== (m[4] === "to")) throw new Error(`${where}: send needs 'to', recv 'from'`);
        const peer = Number(m[5]);
        if (peer >= p) throw new Error(`${where}: peer out of range`);
        ops.push({
          kind: m[2] as "send" | "recv",
          bytes: Number(m[3]),
          peer,
          tag: Number(m[6]),
          requires: [],
          irequires: [],
        });
      } else ops.push({ kind: "calc", bytes: Number(m[7]), peer: -1, tag: -1, requires: [], irequires: [] });
      return;
    }
    if ((m = /^([a-zA-Z][a-zA-Z0-9_]*) (requires|irequires) ([a-zA-Z][a-zA-Z0-9_]*)$/.exec(line))) {
      const a = labels.get(m[1]!),
        b = labels.get(m[3]!);
      if (a === undefined || b === undefined) throw new Error(`${where}: label used before it is defined`);
      (m[2] === "requires" ? ops[a]!.requires : ops[a]!.irequires).push(b);
      return;
    }
    throw new Error(`${where}: not GOAL`);
  });
  if (cur !== null) throw new Error("missing closing }");
  if (ranks.length !== p) throw new Error(`num_ranks ${p} but ${ranks.length} rank blocks`);
  return ranks;
}

/** Sends and receives matched per (src, dst, tag, bytes): the multiset difference, empty when all match. */
function unmatched(ranks: GoalOp[][]): string[] {
  const count = new Map<string, number>();
  ranks.forEach((ops, r) => {
    for (const o of ops) {
      if (o.kind === "calc") continue;
      const key = o.kind === "send" ? `${r}>${o.peer}:${o.tag}:${o.bytes}` : `${o.peer}>${r}:${o.tag}:${o.bytes}`;
      count.set(key, (count.get(key) ?? 0) + (o.kind === "send" ? 1 : -1));
    }
  });
  return [...count].filter(([, n]) => n !== 0).map(([k, n]) => `${k} x ${n}`);
}

/** Runs the dependencies: an operation starts when what it requires is done; a send and its receive (FIFO per key) finish together once both started. Returns the operations never finished. */
function execute(ranks: GoalOp[][]): number {
  const done = ranks.map((ops) => new Uint8Array(ops.length));
  const started = ranks.map((ops) => new Uint8Array(ops.length));
  const waiting = new Map<string, { sends: [number, number][]; recvs: [number, number][] }>();
  let progress = true;
  while (progress) {
    progress = false;
    ranks.forEach((ops, r) => {
      ops.forEach((o, x) => {
        if (started[r]![x] || !o.requires.every((y) => done[r]![y])) return;
        started[r]![x] = 1;
        progress = true;
        if (o.kind === "calc") return void (done[r]![x] = 1);
        const key = o.kind === "send" ? `${r}>${o.peer}:${o.tag}:${o.bytes}` : `${o.peer}>${r}:${o.tag}:${o.bytes}`;
        const w = waiting.get(key) ?? { sends: [], recvs: [] };
        waiting.set(key, w);
        (o.kind === "send" ? w.sends : w.recvs).push([r, x]);
        while (w.sends.length > 0 && w.recvs.length > 0) {
          const [a, b] = w.sends.shift()!,
            [c, d] = w.recvs.shift()!;
          done[a]![b] = 1;
          done[c]![d] = 1;
        }
      });
    });
  }
  return done.reduce((n, d) => n + d.filter((v) => v === 0).length, 0);
}

describe("GOAL export", () => {
  for (const variant of ["nonblocking", "blocking", "dataflow"] as const) {
    it(`every planner, P = 16, ${variant}: parses, all messages match, the dependencies run to the end, O(ops) requires`, () => {
      const cases = everyPlannerCase(16, variant);
      expect(cases.length).toBeGreaterThanOrEqual(15);
      for (const { planner, prog } of cases) {
        const ranks = parseGoal(goalText(prog));
        expect(unmatched(ranks), planner).toEqual([]);
        expect(execute(ranks), planner).toBe(0);
        let ops = 0,
          deps = 0;
        for (const rank of ranks) {
          for (const o of rank) {
            ops++;
            deps += o.requires.length + o.irequires.length;
          }
        }
        // dataflow: exactly the program's own dependencies; the other variants: O(ops) round joins
        if (variant === "dataflow") expect(deps, planner).toBe(prog.after!.op.length);
        else expect(deps, planner).toBeLessThanOrEqual(2 * ops);
        const messages = prog.ops.kind.filter((k) => k !== 2).length;
        expect(ranks.flat().filter((o) => o.kind !== "calc").length, planner).toBe(messages);
      }
    });
  }
  it("a rank with no operation has one calc 0 (LogGOPSim crashed on an empty rank block), every variant", () => {
    const m = generatePattern("zero", 4, {}, 1);
    for (const variant of ["nonblocking", "blocking", "dataflow"] as const) {
      const text = goalText(lowerSchedule(m, plan(m, "shift"), { variant }).program);
      expect(text).not.toMatch(/\{\n\}/);
      for (const rank of parseGoal(text)) expect(rank).toEqual([expect.objectContaining({ kind: "calc", bytes: 0 })]);
    }
  });
  it("a blocking chain follows program order: each operation but the first requires the one before", () => {
    const { prog } = everyPlannerCase(8, "blocking").find((c) => c.planner === "shift")!;
    for (const rank of parseGoal(goalText(prog)))
      rank.forEach((o, x) => expect(o.requires).toEqual(x === 0 ? [] : [x - 1]));
  });
  it("copies become calc in the given unit; the checker itself refuses what txt2bin refuses", () => {
    const { prog } = everyPlannerCase(8, "nonblocking").find((c) => c.planner === "four-stage")!;
    const text = goalText(prog, { calcPerByte: 1000 });
    expect(text).toMatch(/^num_ranks 8$/m);
    expect(() => parseGoal(text.replace(/^(l\d+: send \d+b to \d+ tag \d+)$/m, "$1 // trailing comment"))).toThrow(
      /not GOAL/,
    );
    expect(() => parseGoal("num_ranks 1\nrank 0 {\nl1 requires l2\nl2: calc 0\n}\n")).toThrow(/before it is defined/);
    expect(
      unmatched(parseGoal("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n")),
    ).toHaveLength(2);
    expect(
      execute(
        parseGoal(
          "num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 0\nl2: send 8b to 1 tag 0\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 8b to 0 tag 0\nl2 requires l1\n}\n",
        ),
      ),
    ).toBe(4);
  });
});
