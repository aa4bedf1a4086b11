/** Fuzz inputs: a corpus of valid matrices and schedules, and fast-check arbitraries of mutations, generated documents and command lines. */
import fc from "fast-check";

/** One input file of a case: its bytes and the extension of its name (which picks the matrix format). */
export interface FuzzFile {
  readonly bytes: Buffer;
  readonly ext: string;
  /** What the file is meant to be (the commands that read it). */
  readonly kind: "matrix" | "schedule";
}

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

/** The commands that read a matrix, and those that read a schedule (gen reads nothing). */
export const MATRIX_COMMANDS = ["stats", "plan", "simulate-protocol", "gen"] as const;
/** The commands whose first argument is a schedule. */
export const SCHEDULE_COMMANDS = ["verify", "cost", "show", "simulate", "simulate-data", "export"] as const;

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
];

/** A command line template: the command, its algorithm and machine, and extra option indices. */
export interface CommandPick {
  readonly command: FuzzCommand;
  readonly algorithm: string;
  readonly machine: string;
  readonly extras: readonly number[];
  readonly output: boolean;
}

/** A command with its options. */
export const commandArb: fc.Arbitrary<CommandPick> = fc.record({
  command: fc.constantFrom(...COMMANDS),
  algorithm: fc.constantFrom(...ALGORITHMS),
  machine: fc.constantFrom(...MACHINES),
  extras: fc.oneof(fc.constant([]), fc.array(fc.nat(EXTRA_OPTIONS.length - 1), { maxLength: 3 })),
  output: fc.boolean(),
});
