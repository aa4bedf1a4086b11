/**
 * Structure-aware case generators, one per surface: matrices, schedules (JSON and raw Arrow with the same header),
 * programs and split indexes, topologies, plan stores in hostile file-system shapes, outputs onto inputs, encodings,
 * the command line, module planners, and large inputs under a memory budget.
 */
import { join } from "node:path";
import type { Corpus } from "./corpus.js";
import type { FuzzCase, OutputCheck, Setup } from "./case.js";
import type { Rng } from "./rng.js";
import { arrowWithHeader } from "./arrow-doc.js";
import { corpusBytes } from "./corpus.js";

/** The outside tree every case has beside its working directory (relative to it): nothing may touch it. */
export const OUTSIDE = "../outside";

const HOSTILE_NUMBERS: readonly unknown[] = [
  null,
  -1,
  -5.5,
  0,
  0.5,
  1e15,
  1e300,
  -1e300,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 31,
  4294967296,
  "5",
  true,
  [],
  {},
  5,
];
const HOSTILE_STRINGS: readonly string[] = [
  "x\nnum_ranks 1\nrank 0 {\nl1: calc 5\n}",
  "a\r\nb",
  "<b>&amp;'\"</b>",
  "]]>--><!--",
  "\u2028line\u2029",
  "tab\there",
  "\u0000nul",
  "é∑😀",
  "a".repeat(3000),
  "__proto__",
  "",
];
const ALGORITHMS = ["shift", "two-stage", "coloring", "rs-n", "linear-permutation", "te-direct", "four-stage"];
const PROTO_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "__defineGetter__",
];

/** A JSON text with a UTF-8 byte-order mark, as UTF-16, or with its first key given twice. */
type Encoding = "bom" | "utf16le" | "utf16be" | "dupkey";

function encode(text: string, e: Encoding): Buffer {
  if (e === "bom") return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  if (e === "utf16le") return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  if (e === "utf16be") {
    const b = Buffer.from(text, "utf16le");
    for (let i = 0; i + 1 < b.length; i += 2) [b[i], b[i + 1]] = [b[i + 1]!, b[i]!];
    return Buffer.concat([Buffer.from([0xfe, 0xff]), b]);
  }
  const m = /"([^"]+)":("[^"]*"|[^,{}[\]]*)/.exec(text)!;
  return Buffer.from(text.replace(m[0], `${m[0]},${m[0]}`));
}

/** The encoding expectation: a BOM changes nothing (twin on the plain file), UTF-16 and duplicate keys are refused. */
function encodingCase(
  surface: string,
  e: Encoding,
  path: string,
  text: string,
  argv: readonly string[],
  setup: readonly Setup[],
): FuzzCase {
  const bytes = encode(text, e);
  if (e === "bom")
    return {
      surface,
      setup: [...setup, { kind: "file", path, bytes }],
      argv,
      expect: "any",
      twin: { setup: [{ kind: "file", path, bytes: text }], argv },
    };
  return {
    surface,
    setup: [...setup, { kind: "file", path, bytes }],
    argv,
    expect: "refused",
    message: e === "dupkey" ? /twice|duplicate/i : /UTF-16/,
  };
}

/** Mutations of bytes that keep most of the document: truncation, a flipped byte, a hostile number spliced in. */
function byteMutation(r: Rng, b: Buffer): Buffer {
  const k = r.int(4);
  if (k === 0) return b.subarray(0, r.int(b.length + 1));
  if (k === 1) {
    const c = Buffer.from(b);
    if (c.length > 0) c[r.int(c.length)] = r.int(256);
    return c;
  }
  const text = b.toString("latin1");
  const nums = [...text.matchAll(/-?\d+(\.\d+)?/g)];
  if (nums.length === 0) return b;
  const m = r.pick(nums);
  const v = r.pick(["1e300", "-1", "9007199254740993", "0.5", "NaN", "1e-320", "00", "4294967296", "-0"]);
  return Buffer.from(text.slice(0, m.index) + v + text.slice(m.index! + m[0].length), "latin1");
}

/** A random dense matrix text (JSON, CSV or Matrix Market) of p ranks, values mostly small, some hostile. */
function matrixText(r: Rng, p: number, fmt: "json" | "csv" | "mtx"): string {
  const hostile = r.chance(0.15);
  const v = (i: number, j: number): string => {
    if (i === j) return "0";
    if (hostile && r.chance(0.05)) return r.pick(["1e300", "9007199254740993", "-1", "0.5", "4503599627370496"]);
    return String(r.chance(0.3) ? 0 : r.logInt(r.chance(0.1) ? 1e9 : 64));
  };
  const rows = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => v(i, j)));
  if (fmt === "csv") return rows.map((row) => row.join(",")).join("\n") + "\n";
  if (fmt === "json")
    return `{"format":"commplan.matrix/v1","p":${p},"elementBytes":8,"rows":[${rows.map((row) => `[${row.join(",")}]`).join(",")}]}`;
  const nz: string[] = [];
  rows.forEach((row, i) => row.forEach((x, j) => x !== "0" && nz.push(`${i + 1} ${j + 1} ${x}`)));
  return `%%MatrixMarket matrix coordinate integer general\n${p} ${p} ${nz.length}\n${nz.join("\n")}\n`;
}

/** Matrices: generated (p up to 200) or corpus files mutated, through stats, plan (re-read by verify) and cost. */
export function matrixCase(r: Rng, c: Corpus): FuzzCase {
  const fmt = r.pick(["json", "csv", "mtx"] as const);
  const path = `m.${fmt}`;
  const alg = r.pick(ALGORITHMS);
  const cmd = r.int(3);
  const argv =
    cmd === 0
      ? ["stats", path]
      : cmd === 1
        ? ["plan", path, "-a", alg, "-o", "s.json", ...(r.chance(0.5) ? ["--payload"] : [])]
        : ["plan", path, "-a", alg, "--machine", r.pick(["t3d-004", "ib-hdr-200"]), "-o", "s2.json", "--json"];
  if (r.chance(0.2)) {
    const corpusFile = r.pick(c.matrices.filter((f) => f.endsWith(".json")));
    return encodingCase(
      "encoding",
      r.pick(["bom", "utf16le", "utf16be", "dupkey"]),
      "m.json",
      corpusBytes(c, corpusFile).toString(),
      argv.map((a) => (a === path ? "m.json" : a)),
      [],
    );
  }
  const text = r.chance(0.5)
    ? matrixText(r, r.chance(0.05) ? r.range(100, 200) : r.logInt(40), fmt)
    : corpusBytes(c, r.pick(c.matrices.filter((f) => f.endsWith(`.${fmt}`)))).toString();
  const bytes = r.chance(0.4) ? byteMutation(r, Buffer.from(text)) : Buffer.from(text);
  return {
    surface: "matrix",
    setup: [{ kind: "file", path, bytes }],
    argv,
    expect: "any",
    then: cmd === 1 ? [["verify", "s.json", "-m", path]] : [],
    unchanged: [path],
  };
}

type Doc = Record<string, unknown>;

/** Empty stages appended to a schedule (a long schedule: past any stack a spread into push would use). */
function withEmptyStages(doc: Doc, n: number): Doc {
  const stages = [...(doc["stages"] as unknown[])];
  for (let k = 0; k < n; k++) stages.push({ name: `e${k}`, rearrange: "none", steps: [] });
  return { ...doc, stages };
}

const HEADER_FIELDS = ["algorithm", "params", "seed", "elementBytes", "matrixDigest", "p"] as const;

/** A header field's hostile value: a number or string of the wrong kind, a hostile name, an inexact size. */
function hostileField(r: Rng, field: string): unknown {
  if (field === "algorithm" && r.chance(0.6)) return r.pick(HOSTILE_STRINGS);
  if (field === "elementBytes" && r.chance(0.5)) return r.pick([2 ** 40, 2 ** 50, 2 ** 52, 1e15, 2 ** 53]);
  return r.chance(0.8) ? r.pick(HOSTILE_NUMBERS) : r.pick(HOSTILE_STRINGS);
}

/** The export argv of a schedule `s` of matrix `m`, its outputs with their checks and re-reads. */
function exportOf(
  r: Rng,
  s: string,
  m: string,
): { argv: string[]; outputs: OutputCheck[]; then: string[][]; thenAgree?: boolean; written: string[] } {
  const fmt = r.pick(["goal", "msccl-xml", "simgrid", "program", "program-split", "arrow"]);
  const variant = r.chance(0.5) ? ["--variant", r.pick(["nonblocking", "blocking", "dataflow"])] : [];
  switch (fmt) {
    case "goal":
      return {
        argv: ["export", s, "-m", m, "-f", "goal", ...variant, "-o", "out.goal"],
        outputs: [{ path: "out.goal", grammar: "goal" }],
        then: [],
        written: ["out.goal"],
      };
    case "msccl-xml":
      return {
        argv: ["export", s, "-m", m, "-f", "msccl-xml", "-o", "out.xml"],
        outputs: [{ path: "out.xml", grammar: "xml" }],
        then: [],
        written: ["out.xml"],
      };
    case "simgrid":
      return {
        argv: ["export", s, "-m", m, "-f", "simgrid", "--machine", r.pick(["ib-hdr-200", "t3d-004"]), "--out", "sg"],
        outputs: [
          { path: "sg/platform.xml", grammar: "platform" },
          { path: "sg/rank-*.txt", grammar: "trace" },
        ],
        then: [],
        written: ["sg"],
      };
    case "program":
      return {
        argv: ["export", s, "-m", m, "-f", "program", ...variant, "-o", "out.json"],
        outputs: [],
        then: [["verify-program", "out.json", "-m", m]],
        written: ["out.json"],
      };
    case "program-split":
      return {
        argv: ["export", s, "-m", m, "-f", "program", ...variant, "--split", "out"],
        outputs: [],
        then: [["verify-program", "out/index.json", "-m", m]],
        written: ["out"],
      };
    default:
      return {
        argv: ["export", s, "-f", "arrow", "-o", "out.arrow"],
        outputs: [],
        // the written Arrow file is read as its input is: verify gives both the same verdict
        then: [
          ["verify", "out.arrow", "-m", m],
          ["verify", s, "-m", m],
        ],
        thenAgree: true,
        written: ["out.arrow"],
      };
  }
}

/**
 * Schedules: a corpus schedule with a hostile header field (the same header also written as raw Arrow: both
 * readers must agree), thousands of empty stages, byte mutations or encodings, through verify, cost and every export.
 */
export function scheduleCase(r: Rng, c: Corpus): FuzzCase {
  const pair = r.pick(c.pairs);
  const m = join(c.dir, pair.matrix);
  const text = corpusBytes(c, pair.schedule).toString();
  let doc = JSON.parse(text) as Doc;
  const kind = r.weighted({ header: 5, stages: 0.3, bytes: 2, encoding: 1, plain: 2 });
  const cmd = r.weighted({ verify: 2, cost: 1, export: 4 });
  const exp = exportOf(r, "s.json", m);
  const argv =
    cmd === "verify"
      ? ["verify", "s.json", "-m", m]
      : cmd === "cost"
        ? ["cost", "s.json", "--machine", "t3d-004"]
        : exp.argv;
  const more = cmd === "export" ? { outputs: exp.outputs, then: exp.then, thenAgree: exp.thenAgree === true } : {};
  if (kind === "encoding")
    return encodingCase("encoding", r.pick(["bom", "utf16le", "utf16be", "dupkey"]), "s.json", text, argv, []);
  if (kind === "bytes")
    return {
      surface: "schedule",
      setup: [{ kind: "file", path: "s.json", bytes: byteMutation(r, Buffer.from(text)) }],
      argv,
      expect: "any",
      ...more,
      unchanged: ["s.json"],
    };
  if (kind === "stages") {
    doc = withEmptyStages(doc, r.chance(0.5) ? r.range(60000, 80000) : r.logInt(5000));
    return {
      surface: "schedule-stages",
      setup: [{ kind: "file", path: "s.json", bytes: JSON.stringify(doc) }],
      argv: cmd === "export" ? argv : ["verify", "s.json", "-m", m],
      expect: "any",
      ...(cmd === "export" ? more : {}),
    };
  }
  if (kind === "header") {
    const field = r.pick(HEADER_FIELDS);
    const value = hostileField(r, field);
    doc = { ...doc, [field]: value };
    const arrow = arrowWithHeader(corpusBytes(c, pair.schedule).toString(), { [field]: value });
    const arrowArgv = argv.map((a) => (a === "s.json" ? "s.arrow" : a));
    return {
      surface: "schedule-header",
      setup: [{ kind: "file", path: "s.json", bytes: JSON.stringify(doc) }],
      argv,
      expect: "any",
      ...more,
      twin: arrow === null ? undefined : { setup: [{ kind: "file", path: "s.arrow", bytes: arrow }], argv: arrowArgv },
    } as FuzzCase;
  }
  // an export may refuse what its runtime cannot hold (MSCCL's steps per thread block, byte counts past 2^53)
  const expect = pair.matrix === c.huge || cmd === "export" ? "any" : "ok";
  return { surface: "schedule", setup: [{ kind: "file", path: "s.json", bytes: text }], argv, expect, ...more };
}

/** Raw Arrow: a corpus schedule's Arrow file with bytes flipped or cut, through verify, cost and export. */
export function arrowCase(r: Rng, c: Corpus): FuzzCase {
  const pair = r.pick(c.pairs);
  const arrow = arrowWithHeader(corpusBytes(c, pair.schedule).toString(), {});
  const m = join(c.dir, pair.matrix);
  const bytes = arrow === null ? Buffer.alloc(0) : byteMutation(r, Buffer.from(arrow));
  const exp = exportOf(r, "s.arrow", m);
  const verify = r.chance(0.4);
  return {
    surface: "arrow",
    setup: [{ kind: "file", path: "s.arrow", bytes }],
    argv: verify ? ["verify", "s.arrow", "-m", m] : exp.argv,
    expect: "any",
    outputs: verify ? [] : exp.outputs,
    then: verify ? [] : exp.then,
    thenAgree: !verify && exp.thenAgree === true,
  };
}

type Op = [number, string, number, number, number, unknown[]];
interface ProgramDoc {
  ranks: { rank: number; ops: Op[] }[];
  [k: string]: unknown;
}

/** A program with one message sent twice: a send and its matching receive both repeated (program-once must fail). */
function duplicateMessage(r: Rng, doc: ProgramDoc): boolean {
  const sends: [number, number][] = [];
  doc.ranks.forEach((rk, i) => rk.ops.forEach((op, j) => op[1] === "send" && op[4] > 0 && sends.push([i, j])));
  if (sends.length === 0) return false;
  const [i, j] = r.pick(sends);
  const send = doc.ranks[i]!.ops[j]!;
  const peer = doc.ranks.find((x) => x.rank === send[2]);
  const k = peer?.ops.findIndex((op) => op[1] === "recv" && op[2] === doc.ranks[i]!.rank && op[3] === send[3]) ?? -1;
  if (peer === undefined || k < 0) return false;
  doc.ranks[i]!.ops.splice(j + 1, 0, [...send]);
  peer.ops.splice(k + 1, 0, [...peer.ops[k]!]);
  return true;
}

/**
 * Programs: corpus programs with one message sent twice (a check failure), byte mutations and encodings; split
 * indexes whose files lead out of their directory ('..', absolute, a link), which must be refused.
 */
export function programCase(r: Rng, c: Corpus): FuzzCase {
  const kind = r.weighted({ twice: 3, bytes: 2, encoding: 1, index: 3, plain: 1 });
  if (kind === "index") {
    const index = JSON.parse(corpusBytes(c, join(c.split.dir, "index.json")).toString()) as { files: string[] };
    const k = r.int(index.files.length);
    const real = index.files[k]!;
    const how = r.pick(["dotdot", "absolute", "link", "dotdot-inner"]);
    const setup: Setup[] = [
      { kind: "copy", path: "d", from: join(c.dir, c.split.dir) },
      { kind: "copy", path: `${OUTSIDE}/${real}`, from: join(c.dir, c.split.dir, real) },
    ];
    const files = [...index.files];
    if (how === "link") {
      setup.push(
        { kind: "rm", path: `d/${real}` },
        { kind: "symlink", path: `d/${real}`, target: `../${OUTSIDE}/${real}` },
      );
    } else {
      files[k] = how === "dotdot" ? `../${OUTSIDE}/${real}` : how === "dotdot-inner" ? `x/../${real}` : `/${real}`;
      setup.push({ kind: "dir", path: "d/x" });
      if (how === "absolute") setup.push({ kind: "copy", path: `d/${real}.abs`, from: join(c.dir, c.split.dir, real) });
    }
    setup.push({ kind: "file", path: "d/index.json", bytes: JSON.stringify({ ...index, files }) });
    return {
      surface: "split-index",
      setup,
      argv: ["verify-program", "d/index.json", "-m", join(c.dir, c.split.matrix)],
      expect: "refused",
      message: /inside|leads out/,
    };
  }
  const pair = r.pick(c.pairs.filter((p) => p.program !== null));
  const text = corpusBytes(c, pair.program!).toString();
  const vp = ["verify-program", "p.json", "-m", join(c.dir, pair.matrix)];
  if (kind === "encoding")
    return encodingCase("encoding", r.pick(["bom", "utf16le", "utf16be", "dupkey"]), "p.json", text, vp, []);
  if (kind === "bytes")
    return {
      surface: "program",
      setup: [{ kind: "file", path: "p.json", bytes: byteMutation(r, Buffer.from(text)) }],
      argv: vp,
      expect: "any",
    };
  const doc = JSON.parse(text) as ProgramDoc;
  if (kind === "twice" && duplicateMessage(r, doc))
    return {
      surface: "program-twice",
      setup: [{ kind: "file", path: "p.json", bytes: JSON.stringify(doc) }],
      argv: vp,
      expect: "not-ok",
    };
  return { surface: "program", setup: [{ kind: "file", path: "p.json", bytes: text }], argv: vp, expect: "ok" };
}

/** A topology JSON of hosts on racks, host names drawn from ordinary and prototype names, bandwidths maybe hostile. */
function topologyText(r: Rng, hostile: boolean): { text: string; hosts: number; valid: boolean } {
  const hosts = r.range(2, 12);
  const racks = r.range(1, 3);
  const names = new Set<string>();
  while (names.size < hosts) names.add(r.chance(0.3) ? r.pick(PROTO_NAMES) : `n${r.int(100)}`);
  const H = [...names];
  const S = Array.from({ length: racks }, (_, i) => (r.chance(0.3) ? `${r.pick(PROTO_NAMES)}-s${i}` : `r${i}`));
  let valid = new Set([...H, ...S]).size === H.length + S.length;
  const bw = (): number => {
    if (hostile && r.chance(0.3)) {
      valid = false;
      return r.pick([1e308, 1.7976931348623157e308, 1e-320, 5e-324, 1e300]);
    }
    return r.pick([12500, 25000, 100000]);
  };
  const links = [
    ...H.map((h, i) => ({ a: h, b: S[Math.floor((i * racks) / hosts)], bandwidth: bw(), latency: 0.2 })),
    ...S.slice(1).map((s, i) => ({ a: S[i], b: s, bandwidth: bw(), latency: 1 })),
  ];
  const text = JSON.stringify({ format: "commplan.topology/v1", name: "t", hosts: H, switches: S, links, routes: [] });
  return { text, hosts, valid };
}

/** Topologies with prototype names (a valid one is accepted) and hostile bandwidths, through platform and verify. */
export function topologyCase(r: Rng, c: Corpus): FuzzCase {
  const { text, hosts, valid } = topologyText(r, r.chance(0.4));
  const setup: Setup[] = [{ kind: "file", path: "t.json", bytes: text }];
  if (r.chance(0.6))
    return {
      surface: "topology",
      setup,
      argv: ["platform", "--topology", "t.json", "-o", "pl.xml", ...(r.chance(0.3) ? ["--explicit"] : [])],
      expect: valid ? "ok" : "any",
      outputs: [{ path: "pl.xml", grammar: "platform" }],
    };
  const pair = r.pick(c.pairs.filter((p) => p.matrix === "m0.json" || p.matrix === "m1.json"));
  return {
    surface: "topology",
    setup,
    argv: ["verify", join(c.dir, pair.schedule), "-m", join(c.dir, pair.matrix), "--network", "t.json"],
    expect: valid && hosts >= 5 ? "not-refused" : "any",
  };
}

/** The store's file-system shapes: links, FIFOs, directories where files belong and the other way, sparse giants. */
const STORE_SHAPES = [
  "none",
  "tmp-link",
  "entry-fifo",
  "entry-dir",
  "entry-sparse",
  "entry-link",
  "prefix-file",
  "log-dir",
  "log-fifo",
  "entries-file",
  "tmp-file",
  "readonly",
] as const;

/**
 * Plan stores in hostile shapes through gc, list, verify, get (hostile ids, -o onto the entry's own file) and add:
 * nothing outside the store is touched, read-only commands change nothing, ids are refused unless 64 hex digits,
 * a refused add adds nothing.
 */
export function storeCase(r: Rng, c: Corpus): FuzzCase {
  const S = "S";
  const entry = r.pick(c.entries);
  const ef = `${S}/entries/${entry.id.slice(0, 2)}/${entry.id}.arrow`;
  const shape = r.pick(STORE_SHAPES);
  const setup: Setup[] = [{ kind: "copy", path: S, from: join(c.dir, c.store) }];
  switch (shape) {
    case "tmp-link":
      setup.push({ kind: "rm", path: `${S}/tmp` }, { kind: "symlink", path: `${S}/tmp`, target: `../${OUTSIDE}/tree` });
      break;
    case "entry-fifo":
      setup.push({ kind: "rm", path: ef }, { kind: "fifo", path: ef });
      break;
    case "entry-dir":
      setup.push({ kind: "rm", path: ef }, { kind: "dir", path: ef });
      break;
    case "entry-sparse":
      setup.push({ kind: "rm", path: ef }, { kind: "sparse", path: ef, size: 20 * 2 ** 30 });
      break;
    case "entry-link":
      setup.push({ kind: "rm", path: ef }, { kind: "symlink", path: ef, target: `../../../${OUTSIDE}/victim.txt` });
      break;
    case "prefix-file":
      setup.push(
        { kind: "rm", path: `${S}/entries/${entry.id.slice(0, 2)}` },
        { kind: "file", path: `${S}/entries/${entry.id.slice(0, 2)}`, bytes: "x" },
      );
      break;
    case "log-dir":
      setup.push({ kind: "rm", path: `${S}/log` }, { kind: "dir", path: `${S}/log` });
      break;
    case "log-fifo":
      setup.push({ kind: "rm", path: `${S}/log` }, { kind: "fifo", path: `${S}/log` });
      break;
    case "entries-file":
      setup.push({ kind: "rm", path: `${S}/entries` }, { kind: "file", path: `${S}/entries`, bytes: "x" });
      break;
    case "tmp-file":
      setup.push({ kind: "rm", path: `${S}/tmp` }, { kind: "file", path: `${S}/tmp`, bytes: "x" });
      break;
    case "readonly":
      setup.push({ kind: "readonly", path: S });
      break;
    default:
  }
  const m = join(c.dir, c.storeMatrix);
  const cmd = r.weighted({ gc: 2, list: 2, verify: 2, get: 3, "get-id": 2, "get-onto": 1, add: 2 });
  const readOnly = cmd !== "gc" && cmd !== "add";
  const unchanged = readOnly ? [S, OUTSIDE] : [OUTSIDE];
  const base = { surface: `store-${cmd}`, setup, unchanged };
  switch (cmd) {
    case "gc":
      return {
        ...base,
        argv: ["store", "gc", S],
        expect: "any",
        then: shape === "readonly" ? [] : [["store", "verify", S]],
      };
    case "list":
      return { ...base, argv: ["store", "list", S, ...(r.chance(0.5) ? ["--json"] : [])], expect: "any" };
    case "verify":
      return { ...base, argv: ["store", "verify", S], expect: shape === "none" || shape === "readonly" ? "ok" : "any" };
    case "get":
      return {
        ...base,
        argv: ["store", "get", S, "--id", entry.id, "-o", "out.arrow"],
        expect: "any",
        then: [["verify", "out.arrow", "-m", m]],
      };
    case "get-onto":
      return {
        ...base,
        argv: ["store", "get", S, "--id", entry.id, "-o", ef],
        expect: shape === "none" ? "refused" : "any",
      };
    case "add": {
      const request = r.chance(0.5) ? entry.request : ["-a", r.pick(["rs-n", "shift", "linear-permutation"])];
      return {
        ...base,
        argv: ["store", "add", S, m, ...request],
        expect: "any",
        unchanged: [OUTSIDE],
        unchangedUnlessOk: [`${S}/entries`],
        surface: "store-add",
      };
    }
    default: {
      // a hostile id that leads to a copy of a real entry outside the store: it must be refused, never served
      const id = r.pick([
        `../../${OUTSIDE.slice(3)}/${entry.id}`,
        `../${entry.id}`,
        entry.id.toUpperCase(),
        `${entry.id}0`,
        entry.id.slice(1),
        ".",
      ]);
      const resolved = join(S, "entries", id.slice(0, 2), `${id}.arrow`);
      return {
        ...base,
        setup: [
          ...setup,
          {
            kind: "copy",
            path: resolved.startsWith("..") || resolved.startsWith(S) ? resolved : `x/${resolved}`,
            from: join(c.dir, c.store, "entries", entry.id.slice(0, 2), `${entry.id}.arrow`),
          },
        ],
        argv: ["store", "get", S, "--id", id, "-o", "out.arrow"],
        expect: "refused",
        message: /64 lowercase hex/,
      };
    }
  }
}

/** Outputs onto inputs: the schedule or matrix placed where export -o or --split writes (index.json, rank-0.json). */
export function ontoInputCase(r: Rng, c: Corpus): FuzzCase {
  const pair = r.pick(c.pairs);
  const which = r.pick(["schedule", "matrix"]);
  const name = r.pick(["index.json", "rank-0.json", `rank-${r.int(3)}.json`]);
  const sPath = which === "schedule" ? `d/${name}` : "s.json";
  const mPath = which === "matrix" ? `d/${name}` : "m.json";
  const split = r.chance(0.7);
  return {
    surface: "onto-input",
    setup: [
      { kind: "dir", path: "d" },
      { kind: "copy", path: sPath, from: join(c.dir, pair.schedule) },
      { kind: "copy", path: mPath, from: join(c.dir, pair.matrix) },
    ],
    argv: [
      "export",
      sPath,
      "-m",
      mPath,
      "-f",
      "program",
      ...(split ? ["--split", "d"] : ["-o", which === "schedule" ? sPath : mPath]),
    ],
    expect: "any",
    unchanged: [sPath, mPath],
  };
}

/** The command line: missing and unknown sub-commands and options, help (which must exit 0). */
export function cliCase(r: Rng): FuzzCase {
  const cmds = [
    "store",
    "export",
    "plan",
    "verify",
    "simulate",
    "stats",
    "gen",
    "platform",
    "compare",
    "cost",
    "check-planner",
    "verify-program",
    "show",
  ];
  const c = r.pick(cmds);
  const k = r.int(6);
  const argv =
    k === 0
      ? [c]
      : k === 1
        ? [c, "--bogus"]
        : k === 2
          ? [c, "--help"]
          : k === 3
            ? ["store", r.pick(["bogus", "add", "get", "gc"])]
            : k === 4
              ? [c, "missing-file.json"]
              : [r.pick(["bogus", "--help", "--version", "help"])];
  return { surface: "cli", setup: [], argv, expect: argv.includes("--help") || argv[0] === "--version" ? "ok" : "any" };
}

const PLANNER_BODIES: readonly string[] = [
  "process.exit(0);",
  "Promise.reject(new Error('stray')); return [];",
  "const a = []; for (;;) a.push(new Array(1e6).fill(1));",
  "for (;;) {}",
  "throw new Error('boom');",
  "return null;",
];

/** Module planners that exit, reject, allocate without end or loop: each a one-line failure naming the planner. */
export function plannerCase(r: Rng, c: Corpus): FuzzCase {
  const body = r.pick(PLANNER_BODIES);
  return {
    surface: "check-planner",
    setup: [{ kind: "file", path: "planner.mjs", bytes: `export function plan(matrix) { ${body} }\n` }],
    argv: ["check-planner", "planner.mjs", "--timeout", "2", "--runs", "3", "--max-memory", "256M"],
    expect: "not-ok",
    message: /planner\.mjs/,
  };
  void c;
}

/** Large inputs under a memory budget: planning, verifying and lowering P in the thousands. */
export function bigCase(r: Rng): FuzzCase {
  const p = r.pick([1024, 2048, 4096]);
  const budget = r.pick([64, 128, 256]);
  const alg = r.pick(["shift", "linear-permutation"]);
  const argv = r.chance(0.5) ? ["plan", "m.csv", "-a", alg, "-o", "s.json"] : ["stats", "m.csv"];
  const rows = Array.from({ length: p }, (_, i) =>
    Array.from({ length: p }, (_, j) => (i === j ? 0 : 1 + ((i * 7 + j) % 5))).join(","),
  ).join("\n");
  return {
    surface: "big",
    setup: [{ kind: "file", path: "m.csv", bytes: rows + "\n" }],
    argv: [...argv, "--max-memory", `${budget}M`],
    expect: "any",
    budget: budget * 2 ** 20,
  };
}

/**
 * Text exports of schedules with hostile names (line breaks, markup, comment ends) and byte counts near 2^53 (the
 * corpus's huge matrix, element sizes up to 1 MiB): every output must pass its grammar, with exact numbers.
 */
export function exportTextCase(r: Rng, c: Corpus): FuzzCase {
  const pair = r.chance(0.4) ? r.pick(c.pairs.filter((p) => p.matrix === c.huge)) : r.pick(c.pairs);
  const doc = JSON.parse(corpusBytes(c, pair.schedule).toString()) as Doc;
  if (r.chance(0.6)) doc["algorithm"] = r.pick(HOSTILE_STRINGS);
  if (r.chance(0.5)) doc["elementBytes"] = r.pick([1, 8, 64, 1024, 1048576]);
  const exp = exportOf(r, "s.json", join(c.dir, pair.matrix));
  return {
    surface: "export-text",
    setup: [{ kind: "file", path: "s.json", bytes: JSON.stringify(doc) }],
    argv: exp.argv,
    expect: "any",
    outputs: exp.outputs,
    then: exp.then,
    thenAgree: exp.thenAgree === true,
  };
}
