/** Fuzz inputs: a corpus of valid matrices, schedules, programs, topologies and store entries, and fast-check arbitraries of mutations, generated documents, network specs and command lines. */
import fc from "fast-check";

/** One input file of a case: its bytes and the extension of its name (which picks the matrix format). */
export interface FuzzFile {
  readonly bytes: Buffer;
  readonly ext: string;
  /** What the file is meant to be (the commands that read it). */
  readonly kind: FuzzKind;
  /** The (unmutated) matrix file a corpus schedule, program or store entry was made from. */
  readonly matrix?: string;
  /** A file that lives in a directory (a rank file of a split program, a store entry): the case copies `dir`, writes the mutated bytes at `rel` in the copy, and runs the command on the copy's `main` (relative to it). */
  readonly within?: { readonly dir: string; readonly rel: string; readonly main: string };
  /** A store entry: its id and the request options that resolve to it (`-a shift --payload`). */
  readonly entry?: { readonly id: string; readonly request: readonly string[] };
}

/** The kinds of input file. */
export type FuzzKind = "matrix" | "schedule" | "program" | "topology" | "entry";

/** A byte-level or text-level change applied to a base document. */
export type Mutation =
  | { readonly kind: "truncate"; readonly at: number }
  | { readonly kind: "flip"; readonly at: number; readonly bit: number }
  | { readonly kind: "byte"; readonly at: number; readonly value: number }
  | { readonly kind: "number"; readonly nth: number; readonly value: string }
  | { readonly kind: "nest"; readonly at: number; readonly depth: number; readonly open: string }
  | { readonly kind: "insert"; readonly at: number; readonly text: string }
  | { readonly kind: "delete"; readonly at: number; readonly length: number }
  | { readonly kind: "duplicate"; readonly at: number; readonly length: number }
  | { readonly kind: "encoding"; readonly to: "utf16le" | "latin1" | "bom" | "nul" }
  | { readonly kind: "repeat"; readonly times: number };

/** Numbers that sit on or past a limit, or are not numbers a field accepts. */
export const HOSTILE_NUMBERS = [
  "0",
  "-1",
  "1.5",
  "-0",
  "1e300",
  "-1e300",
  "1e-300",
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "1152921504606846976",
  "4294967295",
  "4294967296",
  "4294967297",
  "16383",
  "16384",
  "16385",
  "1000000000",
  "1048576",
  "1048577",
  "2147483648",
  "1e15",
  "0.0",
  "1E1",
  "123456789012345678901234567890",
];

const arbAt = fc.nat({ max: 1 << 20 });

/** A mutation of a document. */
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: arbAt }),
  fc.record({ kind: fc.constant("flip" as const), at: arbAt, bit: fc.nat(7) }),
  fc.record({
    kind: fc.constant("byte" as const),
    at: arbAt,
    value: fc.constantFrom(
      0x00,
      0x22,
      0x2c,
      0x5b,
      0x5d,
      0x7b,
      0x7d,
      0x0a,
      0x0d,
      0x5c,
      0xff,
      0xc3,
      0x80,
      0x2d,
      0x25,
      0x23,
      0x20,
    ),
  }),
  fc.record({ kind: fc.constant("number" as const), nth: fc.nat(200), value: fc.constantFrom(...HOSTILE_NUMBERS) }),
  fc.record({
    kind: fc.constant("nest" as const),
    at: arbAt,
    depth: fc.constantFrom(10, 1000, 20000),
    open: fc.constantFrom("[", '{"a":', '[{"x":'),
  }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: arbAt,
    text: fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        ",",
        '"__proto__":1,',
        '"p":16384,',
        "null",
        '"\\ud800"',
        "\u2028",
        "#",
        "%",
        "1 1 1\n",
        "\n",
        ",,,,",
        '"stalls":[0,0],',
      ),
    ),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: arbAt, length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant("duplicate" as const), at: arbAt, length: fc.integer({ min: 1, max: 200 }) }),
  fc.record({
    kind: fc.constant("encoding" as const),
    to: fc.constantFrom("utf16le" as const, "latin1" as const, "bom" as const, "nul" as const),
  }),
  fc.record({ kind: fc.constant("repeat" as const), times: fc.integer({ min: 2, max: 4 }) }),
);

const NUMBER_RUN = /-?\d+(\.\d+)?([eE][+-]?\d+)?/g;

/** Applies one mutation to a document's bytes. */
export function mutate(b: Buffer, m: Mutation): Buffer {
  const at = b.length === 0 ? 0 : "at" in m ? m.at % (b.length + 1) : 0;
  switch (m.kind) {
    case "truncate":
      return b.subarray(0, at);
    case "flip": {
      if (b.length === 0) return b;
      const c = Buffer.from(b);
      c[at % b.length] = c[at % b.length]! ^ (1 << m.bit);
      return c;
    }
    case "byte": {
      if (b.length === 0) return Buffer.from([m.value]);
      const c = Buffer.from(b);
      c[at % b.length] = m.value;
      return c;
    }
    case "number": {
      const text = b.toString("latin1");
      const runs = [...text.matchAll(NUMBER_RUN)];
      if (runs.length === 0) return b;
      const r = runs[m.nth % runs.length]!;
      return Buffer.from(text.slice(0, r.index) + m.value + text.slice(r.index! + r[0].length), "latin1");
    }
    case "nest": {
      const close = m.open === "[" ? "]" : m.open === '{"a":' ? "}" : "}]";
      return Buffer.concat([
        b.subarray(0, at),
        Buffer.from(m.open.repeat(m.depth) + "1" + close.repeat(m.depth)),
        b.subarray(at),
      ]);
    }
    case "insert":
      return Buffer.concat([b.subarray(0, at), Buffer.from(m.text, "utf8"), b.subarray(at)]);
    case "delete":
      return Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + m.length))]);
    case "duplicate":
      return Buffer.concat([b.subarray(0, at), b.subarray(at, at + m.length), b.subarray(at)]);
    case "encoding":
      if (m.to === "utf16le") return Buffer.from(b.toString("utf8"), "utf16le");
      if (m.to === "latin1") return Buffer.from(b.toString("utf8").replace(/,/g, ",\u00e9"), "latin1");
      if (m.to === "bom") return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
      return Buffer.concat([b.subarray(0, at), Buffer.from([0]), b.subarray(at)]);
    case "repeat":
      return Buffer.concat(Array.from({ length: m.times }, () => b));
  }
}

/** A small matrix generated from scratch in one of the three formats, with odd but legal (or nearly legal) shapes. */
export const generatedMatrixArb: fc.Arbitrary<FuzzFile> = fc
  .record({
    p: fc.integer({ min: 1, max: 9 }),
    cells: fc.array(
      fc.oneof(
        fc.constant(0),
        fc.nat(5),
        fc.constantFrom(...HOSTILE_NUMBERS.map(Number).filter((v) => Number.isFinite(v))),
      ),
      { minLength: 81, maxLength: 81 },
    ),
    format: fc.constantFrom("json-rows", "json-entries", "csv", "mtx"),
    elementBytes: fc.option(fc.constantFrom(1, 8, 48, 1048576, 1048577, 0, -3, 1e15), { nil: undefined }),
    announce: fc.option(fc.constantFrom(16384, 16385, 2, 1e9), { nil: undefined }),
  })
  .map(({ p, cells, format, elementBytes, announce }) => {
    const v = (i: number, j: number): number => cells[(i * 9 + j) % 81]!;
    const P = announce ?? p;
    if (format === "csv") {
      const rows = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => v(i, j)).join(","));
      return {
        bytes: Buffer.from(
          (elementBytes !== undefined ? `# commplan elementBytes=${elementBytes}\n` : "") + rows.join("\n") + "\n",
        ),
        ext: ".csv",
        kind: "matrix" as const,
      };
    }
    if (format === "mtx") {
      const entries: string[] = [];
      for (let i = 0; i < p; i++)
        for (let j = 0; j < p; j++) if (v(i, j) !== 0) entries.push(`${i + 1} ${j + 1} ${v(i, j)}`);
      const eb = elementBytes !== undefined ? `% commplan elementBytes=${elementBytes}\n` : "";
      return {
        bytes: Buffer.from(
          `%%MatrixMarket matrix coordinate integer general\n${eb}${P} ${P} ${entries.length}\n${entries.join("\n")}\n`,
        ),
        ext: ".mtx",
        kind: "matrix" as const,
      };
    }
    const doc: Record<string, unknown> = { format: "commplan.matrix/v1", p: P };
    if (elementBytes !== undefined) doc["elementBytes"] = elementBytes;
    if (format === "json-rows")
      doc["rows"] = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => v(i, j)));
    else {
      const entries: number[][] = [];
      for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (v(i, j) !== 0) entries.push([i, j, v(i, j)]);
      doc["entries"] = entries;
    }
    return { bytes: Buffer.from(JSON.stringify(doc)), ext: ".json", kind: "matrix" as const };
  });

/** A schedule generated from scratch: random transfers, stalls, chunks and times over a header with hostile values. */
export const generatedScheduleArb: fc.Arbitrary<FuzzFile> = fc
  .record({
    p: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom(16384, 16385, 1e9, 1e300, 4294967297)),
    seed: fc.oneof(fc.constant(null), fc.nat(10), fc.constantFrom(-1, 4294967296, 1.5)),
    elementBytes: fc.constantFrom(8, 1, 1048576, 1048577, 1e300),
    stages: fc.array(
      fc.array(
        fc.record({
          transfers: fc.array(
            fc.record({
              src: fc.nat(10),
              dst: fc.nat(10),
              size: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constantFrom(0, 9007199254740991, 2 ** 60)),
              chunked: fc.boolean(),
              timed: fc.boolean(),
            }),
            { maxLength: 6 },
          ),
          stalls: fc.array(fc.nat(10), { maxLength: 3 }),
        }),
        { maxLength: 5 },
      ),
      { maxLength: 3 },
    ),
    emptySteps: fc.constantFrom(0, 0, 0, 1000, 50000),
  })
  .map(({ p, seed, elementBytes, stages, emptySteps }) => {
    let t = 0;
    const st = stages.map((steps, k) => ({
      name: `s${k}`,
      rearrange: "none",
      steps: [
        ...steps.map((s) => ({
          transfers: s.transfers.map((x) => ({
            src: x.src,
            dst: x.dst,
            size: x.size,
            ...(x.chunked ? { chunks: [[x.src, x.dst, 0, x.size]] } : {}),
            ...(x.timed ? { start: t, end: (t += 1) } : {}),
          })),
          stalls: s.stalls,
        })),
        ...Array.from({ length: k === 0 ? emptySteps : 0 }, () => ({ transfers: [], stalls: [] })),
      ],
    }));
    const doc = {
      format: "commplan.schedule/v1",
      p,
      algorithm: "fuzz",
      params: {},
      seed,
      elementBytes,
      matrixDigest: "d",
      stages: st,
    };
    return { bytes: Buffer.from(JSON.stringify(doc)), ext: ".json", kind: "schedule" as const };
  });

/** A topology JSON document generated from scratch: hosts, switches, links between any two names (declared or not), routes, hostile values. */
export const generatedTopologyArb: fc.Arbitrary<FuzzFile> = fc
  .record({
    hosts: fc.integer({ min: 0, max: 17 }),
    switches: fc.integer({ min: 0, max: 5 }),
    star: fc.boolean(), // every host linked to a switch (a valid base to break)
    links: fc.array(
      fc.record({
        a: fc.nat(24),
        b: fc.nat(24),
        bandwidth: fc.constantFrom(12500, 1, 0, -1, 1e-300, 1e300, 0.5),
        latency: fc.constantFrom(0, 0.2, 1, -1, 1e300),
      }),
      { maxLength: 12 },
    ),
    routes: fc.array(fc.record({ src: fc.nat(24), dst: fc.nat(24), path: fc.array(fc.nat(24), { maxLength: 6 }) }), {
      maxLength: 4,
    }),
    name: fc.option(fc.constantFrom("net", "", "__proto__", "a\nb", "x".repeat(300)), { nil: undefined }),
    duplicate: fc.boolean(),
    routing: fc.option(fc.constantFrom("ecmp", "dmodk", "random", 3, null), { nil: undefined }),
  })
  .map(({ hosts, switches, star, links, routes, name, duplicate, routing }) => {
    const H = Array.from({ length: hosts }, (_, i) => `h${i}`);
    const S = Array.from({ length: switches }, (_, i) => `s${i}`);
    const node = (k: number): string => (k < hosts ? H[k]! : k - hosts < switches ? S[k - hosts]! : `w${k}`);
    const doc: Record<string, unknown> = {
      format: "commplan.topology/v1",
      ...(name === undefined ? {} : { name }),
      hosts: duplicate && hosts > 1 ? [...H, H[0]] : H,
      switches: S,
      links: [
        ...(star && switches > 0
          ? H.map((h, i) => ({ a: h, b: S[i % switches], bandwidth: 12500, latency: 0.2 }))
          : []),
        ...(star ? S.slice(1).map((sw, i) => ({ a: S[i], b: sw, bandwidth: 25000, latency: 1 })) : []),
        ...links.map((l) => ({ a: node(l.a), b: node(l.b), bandwidth: l.bandwidth, latency: l.latency })),
      ],
    };
    if (routes.length > 0)
      doc["routes"] = routes.map((r) => ({ src: node(r.src), dst: node(r.dst), path: r.path.map(node) }));
    if (routing !== undefined) doc["routing"] = routing;
    return { bytes: Buffer.from(JSON.stringify(doc, null, 1)), ext: ".json", kind: "topology" as const };
  });

/** Network specs of --network / --topology, valid and hostile (generators past their limits, broken syntax, a missing file). */
export const NETWORK_SPECS = [
  "flat",
  "flat:bw=0",
  "flat:bw=-1",
  "flat:lat=1e300",
  "flat:bw=NaN",
  "flat:bw=Infinity",
  "fat-tree",
  "fat-tree:k=4",
  "fat-tree:k=4,oversub=4",
  "fat-tree:k=4,oversub=2/1",
  "fat-tree:k=3",
  "fat-tree:k=0",
  "fat-tree:k=2",
  "fat-tree:k=1000000",
  "fat-tree:k=1e300",
  "fat-tree:k=4,oversub=0",
  "fat-tree:k=4,oversub=2/0",
  "fat-tree:k=4,oversub=1/1/1",
  "fat-tree:k=4,oversub=-1",
  "fat-tree:k=4,oversub=1e-300",
  "fat-tree:k=4,k=4",
  "fat-tree:k=4,routing=dmodk",
  "fat-tree:k=4,oversub=2,routing=dmodk",
  "fat-tree:k=4,routing=DMODK",
  "fat-tree:k=4,routing=",
  "torus",
  "torus:dims=2x4",
  "torus:dims=4x4",
  "torus:dims=2x2x2",
  "torus:dims=0x4",
  "torus:dims=1x1",
  "torus:dims=100000x100000",
  "torus:dims=2x2x2x2",
  "torus:dims=x",
  "torus:dims=4x4,hpr=0",
  "torus:hpr=100000000",
  "torus:dims=65536",
  "dragonfly",
  "dragonfly:routers=2,hpr=2",
  "dragonfly:groups=1",
  "dragonfly:groups=100000",
  "dragonfly:routers=0",
  "dragonfly:globals=0",
  "dragonfly:groups=1000,routers=1000,hpr=1000",
  "dragonfly:gbw=0",
  "rail",
  "rail:gpus=4",
  "rail:gpus=0",
  "rail:gpus=1,nodes=1000000",
  "rail:spines=0",
  "rail:spines=1000000",
  "rail:nvbw=-5",
  "rail:gpus=4,routing=dmodk",
  "cm5-fat-tree",
  "cm5-fat-tree:lat=-1",
  "nope",
  "",
  ":",
  "fat-tree:",
  "fat-tree:k",
  "fat-tree:=4",
  "fat-tree:k=4,",
  "fat-tree:__proto__=1",
  "torus:dims=2x4:x",
  "missing.json",
];

/** Specs that build a network for the corpus's P (at most 16), so the commands get past them. */
export const VALID_SPECS = [
  "flat",
  "fat-tree:k=4",
  "fat-tree:k=4,oversub=4",
  "fat-tree:k=4,routing=dmodk",
  "torus:dims=4x4",
  "dragonfly:routers=2,hpr=2",
  "rail:gpus=4",
  "cm5-fat-tree",
];

const GENERATOR_KEYS = [
  "k",
  "oversub",
  "dims",
  "hpr",
  "groups",
  "routers",
  "globals",
  "gbw",
  "gpus",
  "nodes",
  "spines",
  "nvbw",
  "routing",
  "bw",
  "lat",
];

/** A generator spec with random keys and hostile values. */
export const generatedSpecArb: fc.Arbitrary<string> = fc
  .record({
    name: fc.constantFrom("flat", "fat-tree", "torus", "dragonfly", "rail", "cm5-fat-tree"),
    pairs: fc.array(
      fc.record({
        key: fc.constantFrom(...GENERATOR_KEYS),
        value: fc.oneof(
          fc.constantFrom(...HOSTILE_NUMBERS),
          fc.constantFrom("2x2", "3x3x3", "1x1x1", "2/1", "4x", "9".repeat(40), "0x0"),
        ),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ name, pairs }) => `${name}:${pairs.map((p) => `${p.key}=${p.value}`).join(",")}`);

/** The commands that read a matrix. */
export const MATRIX_COMMANDS = ["stats", "plan", "simulate-protocol", "gen", "compare", "plan-auto"] as const;
/** The commands whose first argument is a schedule. */
export const SCHEDULE_COMMANDS = [
  "verify",
  "cost",
  "show",
  "simulate",
  "simulate-data",
  "export",
  "simulate-network",
  "verify-network",
] as const;
/** The commands that read a program. */
export const PROGRAM_COMMANDS = ["verify-program"] as const;
/** The commands that read a topology JSON file (as --network or --topology). */
export const TOPOLOGY_COMMANDS = ["platform", "simulate-network", "verify-network", "compare", "plan-auto"] as const;
/** The commands that read a plan store. */
export const STORE_COMMANDS = ["store-get", "store-list", "store-verify", "store-gc", "store-add"] as const;
/** The commands that fit each kind of input. */
export const COMMANDS_OF: Record<FuzzKind, readonly FuzzCommand[]> = {
  matrix: MATRIX_COMMANDS,
  schedule: SCHEDULE_COMMANDS,
  program: PROGRAM_COMMANDS,
  topology: TOPOLOGY_COMMANDS,
  entry: STORE_COMMANDS,
};

/** The sub-commands a case runs, with the options each may take (values drawn from a pool, valid and not). */
export const COMMANDS = [
  "stats",
  "plan",
  "verify",
  "cost",
  "show",
  "simulate",
  "simulate-protocol",
  "simulate-data",
  "export",
  "gen",
  "verify-program",
  "simulate-network",
  "verify-network",
  "compare",
  "plan-auto",
  "platform",
  ...STORE_COMMANDS,
] as const;
/** One of COMMANDS. */
export type FuzzCommand = (typeof COMMANDS)[number];

/** Algorithms the plan cases pick from (a name not in the registry among them). */
export const ALGORITHMS = [
  "shift",
  "linear-permutation",
  "rs-n",
  "rs-nh",
  "coloring",
  "split-coloring",
  "two-stage",
  "mesh-two-stage",
  "four-stage",
  "te-direct",
  "te-valiant",
  "no-such",
];
const MACHINES = ["t3d-004", "cm5-fat-tree", "ib-hdr-200", "nope"];

/** The export options a case may add (formats, variants, layouts, chunk sizes). */
export const EXPORT_FORMATS = ["program", "goal", "msccl-xml", "simgrid", "arrow", "program", "nope"] as const;

/** Extra options: each entry is the argv words it adds (some invalid on purpose). */
export const EXTRA_OPTIONS: readonly (readonly string[])[] = [
  ["--json"],
  ["--payload"],
  ["--seed", "7"],
  ["--seed", "-1"],
  ["--seed", "99999999999"],
  ["--element-bytes", "4"],
  ["--element-bytes", "0"],
  ["--element-bytes", "1048577"],
  ["--param", "factor=2"],
  ["--param", "schedule=linear-permutation"],
  ["--param", "ports=2"],
  ["--param", "mode=bvn"],
  ["--param", "chunk=1"],
  ["--param", "__proto__=1"],
  ["--param", "x"],
  ["--machine", "t3d-004"],
  ["--machine", "nope"],
  ["--mode", "nonblocking"],
  ["--mode", "sideways"],
  ["--steps"],
  ["--stage", "2"],
  ["--stage", "0"],
  ["--row", "0"],
  ["--row", "5"],
  ["--nodes", "0-3"],
  ["--nodes", "x"],
  ["--lockstep"],
  ["--ports", "2"],
  ["--ports", "0"],
  ["--topology", "ocpc"],
  ["--topology", "cm5-fat-tree"],
  ["--buffers", "1"],
  ["--buffers", "3"],
  ["--send-waits", "steps"],
  ["--no-stage-barriers"],
  ["--barrier", "5"],
  ["--barrier", "-1"],
  ["--max-memory", "1M"],
  ["--max-memory", "junk"],
  ["--generate-recv"],
  ["--busy-measure"],
  ["--early-go-ahead"],
  ["--inquiry", "0.5"],
  ["--inquiry", "Infinity"],
  ["--unknown-option"],
  ["--format", "csv"],
  ["--format", "xml"],
  ["--variant", "blocking"],
  ["--variant", "sideways"],
  ["--layout", "full"],
  ["--layout", "peers"],
  ["--layout", "diagonal"],
  ["--chunk", "1"],
  ["--chunk", "0"],
  ["--chunk", "1e300"],
  ["--port-sharing", "fair"],
  ["--port-sharing", "none"],
  ["--no-link-factor"],
  ["--envelope", "16"],
  ["--envelope", "-1"],
  ["--sweep", "1/4..4"],
  ["--sweep", "0.5,1,4"],
  ["--sweep", "0..1e300"],
  ["--sweep", "1e-300..1e300"],
  ["--sweep", "x"],
  ["--algorithms", "shift,two-stage"],
  ["--algorithms", "nope"],
  ["--explicit"],
  ["-P", "16"],
  ["-P", "0"],
  ["-P", "1048577"],
  ["--id", "0000"],
];

/** A command line template: the command, its algorithm and machine, and extra option indices. */
export interface CommandPick {
  readonly command: FuzzCommand;
  readonly algorithm: string;
  readonly machine: string;
  readonly extras: readonly number[];
  readonly output: boolean;
  /** The --network / --topology spec of the commands that take one ("@file": a corpus topology JSON file). */
  readonly network: string;
  /** Export cases: the format, variant, layout, and whether to --split. */
  readonly format: (typeof EXPORT_FORMATS)[number];
  readonly variant: "nonblocking" | "blocking" | null;
  readonly layout: "full" | "peers" | null;
  readonly split: boolean;
}

/** A command with its options. */
export const commandArb: fc.Arbitrary<CommandPick> = fc.record({
  command: fc.constantFrom(...COMMANDS),
  algorithm: fc.constantFrom(...ALGORITHMS),
  machine: fc.constantFrom(...MACHINES),
  extras: fc.oneof(
    { weight: 2, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.nat(EXTRA_OPTIONS.length - 1), { maxLength: 3 }) },
  ),
  output: fc.boolean(),
  network: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NETWORK_SPECS) },
    { weight: 2, arbitrary: fc.constantFrom(...VALID_SPECS) },
    { weight: 1, arbitrary: generatedSpecArb },
    { weight: 3, arbitrary: fc.constant("@file") },
  ),
  format: fc.constantFrom(...EXPORT_FORMATS),
  variant: fc.constantFrom(null, "nonblocking" as const, "blocking" as const),
  layout: fc.constantFrom(null, "full" as const, "peers" as const),
  split: fc.boolean(),
});
