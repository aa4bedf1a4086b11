// MSCCL-IR export: an independent XML well-formedness and limits checker, an in-order blocking execution of the thread blocks that moves tagged chunks and checks where they land, and refusals naming the limit.
import { describe, expect, it } from "vitest";
import { MSCCL_LIMITS, mscclChunkElements, mscclCollective, mscclXml } from "../../src/export/msccl-xml.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { sendDisplOf, slotOf } from "../../src/model/layout-slots.js";
import { matrixFromEntries, matrixFromRows } from "../../src/model/matrix.js";
import type { Program } from "../../src/model/program.js";
import { plan, PLANNERS } from "../../src/planner/registry.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { everyPlannerCase } from "./export-cases.js";

interface XmlNode {
  name: string;
  attrs: Map<string, string>;
  children: XmlNode[];
}

/** Parses the XML subset MSCCL uses (elements and attributes, no text); throws on anything not well-formed. */
function parseXml(text: string): { root: XmlNode; nodes: number } {
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<&]*")*)\s*(\/?)>/g;
  const stack: XmlNode[] = [];
  let root: XmlNode | null = null,
    nodes = 0,
    at = 0;
  for (let m; (m = tag.exec(text)) !== null;) {
    if (text.slice(at, m.index).trim() !== "") throw new Error(`text outside tags at ${at}`);
    at = m.index + m[0].length;
    const [, close, name, attrText, selfClose] = m;
    if (close) {
      if (stack.pop()?.name !== name) throw new Error(`</${name}> does not close the open element`);
      continue;
    }
    const attrs = new Map<string, string>();
    for (const a of attrText!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      if (attrs.has(a[1]!)) throw new Error(`attribute ${a[1]} twice on <${name}>`);
      attrs.set(a[1]!, a[2]!);
    }
    if (attrs.size > 16) throw new Error(`<${name}> has ${attrs.size} attributes (the parser takes 16)`);
    const node: XmlNode = { name: name!, attrs, children: [] };
    nodes++;
    if (stack.length === 0) {
      if (root !== null) throw new Error("two root elements");
      root = node;
    } else stack.at(-1)!.children.push(node);
    if (!selfClose) stack.push(node);
  }
  if (text.slice(at).trim() !== "" || stack.length > 0 || root === null)
    throw new Error("unclosed element or trailing text");
  return { root, nodes };
}

const num = (n: XmlNode, a: string): number => {
  const v = n.attrs.get(a);
  if (v === undefined || !/^-?\d+$/.test(v)) throw new Error(`<${n.name}> ${a}="${v}" is not an integer`);
  return Number(v);
};

/** Checks the runtime's limits and attribute sets; returns the gpus. */
function checkLimits(text: string): XmlNode[] {
  const { root } = parseXml(text);
  expect(root.name).toBe("algo");
  // the parser of rank g holds the algo, every gpu, and rank g's tb and step elements (MAX_NODES; it fails when a read
  // finds all of them taken); at most MAX_SUBS gpus and tbs under an element
  expect(root.children.length).toBeLessThanOrEqual(MSCCL_LIMITS.subElements);
  for (const gpu of root.children) {
    const own = gpu.children.reduce((n, tb) => n + 1 + tb.children.length, 0);
    expect(1 + root.children.length + own).toBeLessThan(MSCCL_LIMITS.xmlNodes);
    expect(gpu.children.length).toBeLessThanOrEqual(MSCCL_LIMITS.threadBlocks);
  }
  for (const a of [
    "name",
    "proto",
    "nchannels",
    "nchunksperloop",
    "ngpus",
    "coll",
    "inplace",
    "outofplace",
    "minBytes",
    "maxBytes",
  ])
    expect(root.attrs.has(a), a).toBe(true);
  expect(num(root, "nchannels")).toBeLessThanOrEqual(MSCCL_LIMITS.channels);
  expect(root.children).toHaveLength(num(root, "ngpus"));
  root.children.forEach((gpu, g) => {
    expect(gpu.name).toBe("gpu");
    expect(num(gpu, "id")).toBe(g);
    const perChan = new Map<string, number>();
    gpu.children.forEach((tb, t) => {
      expect(tb.name).toBe("tb");
      expect(num(tb, "id")).toBe(t);
      expect(num(tb, "chan")).toBeLessThan(num(root, "nchannels"));
      for (const dir of ["send", "recv"])
        if (num(tb, dir) >= 0)
          perChan.set(`${dir}${num(tb, "chan")}`, (perChan.get(`${dir}${num(tb, "chan")}`) ?? 0) + 1);
      expect(tb.children.length).toBeLessThanOrEqual(MSCCL_LIMITS.stepsPerThreadBlock);
      tb.children.forEach((st, s) => {
        expect(st.name).toBe("step");
        expect(num(st, "s")).toBe(s);
        expect(num(st, "cnt")).toBeLessThan(MSCCL_LIMITS.countBelow);
        expect(num(st, "depid")).toBeLessThanOrEqual(MSCCL_LIMITS.maxDepId);
        expect(["s", "r", "cpy", "nop"]).toContain(st.attrs.get("type"));
        expect(["i", "o", "s"]).toContain(st.attrs.get("srcbuf"));
        expect(["i", "o", "s"]).toContain(st.attrs.get("dstbuf"));
        // the parser's mscclCheckBufferBounds: a step that reads (s, cpy) or writes (r, cpy) a buffer stays in it
        const bound = { i: num(gpu, "i_chunks"), o: num(gpu, "o_chunks"), s: num(gpu, "s_chunks") };
        const type = st.attrs.get("type")!;
        if (type === "s" || type === "cpy")
          expect(num(st, "srcoff")).toBeLessThan(bound[st.attrs.get("srcbuf") as "i" | "o" | "s"]);
        if (type === "r" || type === "cpy")
          expect(num(st, "dstoff")).toBeLessThan(bound[st.attrs.get("dstbuf") as "i" | "o" | "s"]);
      });
      expect([num(tb, "send"), num(tb, "recv")]).not.toContain(g);
    });
    for (const n of perChan.values()) expect(n).toBeLessThanOrEqual(MSCCL_LIMITS.threadBlocksPerChannel);
  });
  return root.children;
}

/**
 * Runs the thread blocks in order with blocking semantics: a step waits for its dependency (which
 * must have hasdep="1"); a send and the head of the peer's receive block on the same channel go
 * together (rendezvous) and move chunk values; cpy and nop run alone. Returns the buffers, or throws
 * on a deadlock naming the stuck heads.
 */
function runThreadBlocks(gpus: XmlNode[], input: (g: number, c: number) => string): Map<string, string>[] {
  const bufs = gpus.map(() => new Map<string, string>());
  gpus.forEach((gpu, g) => {
    for (let c = 0; c < num(gpu, "i_chunks"); c++) bufs[g]!.set(`i${c}`, input(g, c));
  });
  const pc = gpus.map((gpu) => gpu.children.map(() => 0));
  const ready = (g: number, st: XmlNode): boolean => {
    const d = num(st, "depid");
    if (d < 0) return true;
    const target = gpus[g]!.children[d]!.children[num(st, "deps")]!;
    if (target.attrs.get("hasdep") !== "1")
      throw new Error(`gpu ${g}: a dependency on a step without hasdep="1" never fires`);
    return pc[g]![d]! > num(st, "deps");
  };
  const move = (from: number, sb: string, so: number, to: number, db: string, dof: number, cnt: number): void => {
    for (let k = 0; k < cnt; k++) {
      const v = bufs[from]!.get(`${sb}${so + k}`);
      if (v === undefined) throw new Error(`gpu ${from} reads chunk ${sb}${so + k} before it was written`);
      bufs[to]!.set(`${db}${dof + k}`, v);
    }
  };
  for (let progress = true; progress;) {
    progress = false;
    gpus.forEach((gpu, g) => {
      gpu.children.forEach((tb, t) => {
        for (;;) {
          const st = tb.children[pc[g]![t]!];
          if (st === undefined || !ready(g, st)) return;
          const type = st.attrs.get("type");
          if (type === "nop") pc[g]![t]!++;
          else if (type === "cpy") {
            move(
              g,
              st.attrs.get("srcbuf")!,
              num(st, "srcoff"),
              g,
              st.attrs.get("dstbuf")!,
              num(st, "dstoff"),
              num(st, "cnt"),
            );
            pc[g]![t]!++;
          } else if (type === "s") {
            const peer = num(tb, "send");
            const rt = gpus[peer]!.children.findIndex(
              (x) => num(x, "recv") === g && num(x, "chan") === num(tb, "chan"),
            );
            const rs = gpus[peer]!.children[rt]?.children[pc[peer]![rt]!];
            if (rs === undefined || rs.attrs.get("type") !== "r" || !ready(peer, rs)) return;
            expect(num(rs, "cnt")).toBe(num(st, "cnt"));
            move(
              g,
              st.attrs.get("srcbuf")!,
              num(st, "srcoff"),
              peer,
              rs.attrs.get("dstbuf")!,
              num(rs, "dstoff"),
              num(st, "cnt"),
            );
            pc[g]![t]!++;
            pc[peer]![rt]!++;
          } else return; // a receive moves with its send
          progress = true;
        }
      });
    });
  }
  const stuck: string[] = [];
  gpus.forEach((gpu, g) =>
    gpu.children.forEach(
      (tb, t) => void (pc[g]![t]! < tb.children.length && stuck.push(`gpu ${g} tb ${t} step ${pc[g]![t]}`)),
    ),
  );
  if (stuck.length > 0) throw new Error(`deadlock: ${stuck.slice(0, 5).join(", ")}`);
  return bufs;
}

/** MPI's alltoallv plans (docs/mpi-algorithms.md): at most ceil(log2 P) or P - 1 rounds here, within the limits. */
const MPI_NAMES = PLANNERS.filter((p) => p.traits.mpi !== undefined)
  .map((p) => p.name)
  .sort();

describe("MSCCL-IR export", () => {
  for (const variant of ["nonblocking", "blocking", "dataflow"] as const) {
    it(`every planner, P = 8 and 9, ${variant}: well-formed, within the limits, runs in order and lands every chunk (or refused naming a limit)`, () => {
      const written = new Set<string>();
      for (const { planner, m, prog } of [...everyPlannerCase(8, variant, 4), ...everyPlannerCase(9, variant, 4)]) {
        let xml: string;
        try {
          xml = mscclXml(prog);
        } catch (e) {
          expect((e as Error).message, planner).toMatch(/^export: msccl-xml: .* past the MSCCL runtime limit \(/);
          continue;
        }
        written.add(planner);
        const chunk = mscclChunkElements(prog);
        const gpus = checkLimits(xml);
        const bufs = runThreadBlocks(gpus, (g, c) => `${g}:${c}`);
        const { p } = m,
          L = prog.layout;
        for (let r = 0; r < p; r++) {
          for (let i = 0; i < p; i++) {
            const rk = slotOf(L.recvPeers, p, r, i);
            for (let k = 0; rk >= 0 && k < L.recvCounts[rk]!; k += chunk) {
              expect(bufs[r]!.get(`o${(L.recvDispls[rk]! + k) / chunk}`), `${planner}: ${i} -> ${r}`).toBe(
                `${i}:${(sendDisplOf(L, p, i, r) + k) / chunk}`,
              );
            }
          }
        }
      }
      // The te-* packet plans (over 100 rounds here) pass 64 steps per thread block and are refused.
      expect([...written].sort()).toEqual([
        "coloring",
        "four-stage",
        "hierarchical",
        "linear-permutation",
        "mesh-two-stage",
        ...MPI_NAMES,
        "rs-n",
        "rs-nh",
        "shift",
        "split-coloring",
        "two-stage",
      ]);
    });
  }
  it("labels a variable layout coll=alltoallv, and only the uniform layout of MPI_Alltoall coll=alltoall", () => {
    const coll = (xml: string): string | undefined => parseXml(xml).root.attrs.get("coll");
    const variable = matrixFromRows([
      [0, 6, 12],
      [6, 0, 18],
      [12, 6, 0],
    ]);
    const halo = generatePattern("halo", 16, {}, 1);
    for (const m of [variable, halo]) {
      const prog = lowerSchedule(m, plan(m, "shift")).program;
      expect(mscclCollective(prog.layout, prog.p)).toBe("alltoallv");
      expect(coll(mscclXml(prog))).toBe("alltoallv");
      const inputs = new Set(Array.from(prog.layout.sendSize));
      if (m === halo) expect(inputs.size).toBeGreaterThan(1); // i_chunks differ per GPU
    }
    const uniform = matrixFromRows(Array.from({ length: 4 }, () => [5, 5, 5, 5]));
    const prog = lowerSchedule(uniform, plan(uniform, "shift")).program;
    expect(mscclCollective(prog.layout, prog.p)).toBe("alltoall");
    expect(coll(mscclXml(prog))).toBe("alltoall");
    // no self block: not MPI_Alltoall's layout (block j at j x count, P blocks)
    const noSelf = matrixFromRows(Array.from({ length: 4 }, (_, i) => [5, 5, 5, 5].map((v, j) => (i === j ? 0 : v))));
    const q = lowerSchedule(noSelf, plan(noSelf, "shift")).program;
    expect(coll(mscclXml(q))).toBe("alltoallv");
  });
  it("quantises to the gcd of every offset and count; a given chunk must divide them", () => {
    const m = matrixFromRows([
      [0, 6, 12],
      [6, 0, 18],
      [12, 6, 0],
    ]);
    const prog = lowerSchedule(m, plan(m, "shift")).program;
    expect(mscclChunkElements(prog)).toBe(6);
    expect(mscclChunkElements(prog, 3)).toBe(3);
    expect(() => mscclChunkElements(prog, 4)).toThrow(/a chunk of 4 elements does not divide piece/);
    expect(mscclXml(prog, { chunkElements: 3 })).toMatch(
      /<step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="\d+" cnt="2"/,
    );
  });
  it("refuses a plan past a limit by name, and splits a message past cnt 71 into steps", () => {
    const m = matrixFromRows([
      [0, 200],
      [1, 0],
    ]);
    const prog = lowerSchedule(m, plan(m, "shift")).program;
    const gpus = checkLimits(mscclXml(prog));
    expect(gpus[0]!.children[0]!.children.map((s) => num(s, "cnt"))).toEqual([71, 71, 58]);
    const long = matrixFromRows([
      [0, 71 * 65],
      [1, 0],
    ]);
    expect(() => mscclXml(lowerSchedule(long, plan(long, "shift")).program)).toThrow(
      /step count of the thread block of rank 0's send to 1 \(4615 elements in chunks of 1; the option chunk sets a larger chunk\) is at least 65, past the MSCCL runtime limit \(64 steps per thread block\)/,
    );
    // refused from the op table before any step is made: 2^32 + 1 elements in chunks of one would be 6e7 steps
    const huge = matrixFromRows([
      [0, 2 ** 32 + 1],
      [1, 0],
    ]);
    expect(() => mscclXml(lowerSchedule(huge, plan(huge, "shift")).program)).toThrow(/is at least 60492498, past/);
    // messages within the step limit whose pieces end past 32,768 chunks: the offset limit, also up front
    const wide = matrixFromRows(
      Array.from({ length: 9 }, (_, i) => Array.from({ length: 9 }, (_, j) => (i === 0 && j > 0 ? 4500 : 0))),
    );
    expect(() => mscclXml(lowerSchedule(wide, plan(wide, "shift")).program, { chunkElements: 1 })).toThrow(
      /a chunk offset on rank 0 is at least 36000, past the MSCCL runtime limit \(16-bit offsets, below 32768\)/,
    );
  });
});

describe("MSCCL-IR as the runtime's parser holds it", () => {
  it("counts the XML nodes each rank's parser holds (not the file's), and refuses a rank past them", () => {
    // 4,416 elements in the file, 317 for each rank's parser: written (it was refused as past 4096 in all)
    const big = generatePattern("wang-set2", 64, { d: 63, unit: 4 }, 1);
    const gpus = checkLimits(mscclXml(lowerSchedule(big, plan(big, "shift")).program));
    expect(gpus.reduce((n, g) => n + g.children.reduce((k, tb) => k + 1 + tb.children.length, 1), 1)).toBeGreaterThan(
      MSCCL_LIMITS.xmlNodes,
    );
    // te-direct carries each pair's 50 elements as 50 unit packets: 126 thread blocks of 50 steps on every rank
    const packets = generatePattern("uniform", 64, { size: 50 }, 1);
    expect(() => mscclXml(lowerSchedule(packets, plan(packets, "te-direct")).program)).toThrow(
      /^export: msccl-xml: the number of XML nodes the runtime holds for rank 0 \(the algo, 64 gpus, the rank's thread blocks and steps\) is 6491, past the MSCCL runtime limit \(below 4096 nodes\)/,
    );
    // the boundary: rank 0 of P = 1024 sends 1 element to 991 ranks and 33 to 32 ranks, cut into 1-element pieces
    // (split-coloring, chunk 1: one step each): the algo, 1024 gpus, 1023 thread blocks and 2047 steps are 4095 nodes;
    // one element more makes 4096, which the parser refuses (it finds its nodes taken at the next element it reads)
    const fan = (first: number): Program => {
      const entries = [[0, 1, first]];
      for (let j = 2; j < 1024; j++) entries.push([0, j, j <= 32 ? 33 : 1]);
      const m = matrixFromEntries(1024, entries);
      return lowerSchedule(m, plan(m, "split-coloring", { payload: true, params: { chunk: 1 } })).program;
    };
    const edge = checkLimits(mscclXml(fan(33)));
    expect(edge[0]!.children.reduce((n, tb) => n + 1 + tb.children.length, 1 + edge.length)).toBe(4095);
    expect(() => mscclXml(fan(34))).toThrow(
      /^export: msccl-xml: the number of XML nodes the runtime holds for rank 0 \(the algo, 1024 gpus, the rank's thread blocks and steps\) is 4096, past/,
    );
    // more than MAX_SUBS gpu elements under the algo: the parser would write past its array
    const wide = generatePattern("zero", 1025, {}, 1);
    expect(() => mscclXml(lowerSchedule(wide, plan(wide, "shift")).program)).toThrow(
      /^export: msccl-xml: the number of gpu elements \(P\) is 1025, past the MSCCL runtime limit \(1024 elements under the algo\)/,
    );
  });
});

describe("MSCCL-IR export: variants", () => {
  it("--variant: blocking writes the nonblocking XML; dataflow too for a direct plan, not for a relaying one", () => {
    const xmlOf = (v: "nonblocking" | "blocking" | "dataflow") =>
      new Map(
        everyPlannerCase(8, v, 4).flatMap(({ planner, prog }) => {
          try {
            return [[planner, mscclXml(prog)] as const];
          } catch {
            return []; // past a limit in every variant alike (the te-* plans)
          }
        }),
      );
    const [nb, bl, df] = [xmlOf("nonblocking"), xmlOf("blocking"), xmlOf("dataflow")];
    expect([...bl.keys()]).toEqual([...nb.keys()]);
    for (const [planner, xml] of nb) expect(bl.get(planner) === xml, planner).toBe(true);
    expect(df.get("shift") === nb.get("shift")).toBe(true);
    expect(df.get("four-stage") === nb.get("four-stage")).toBe(false);
  });
});
