import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError, type CommplanError } from "../../src/model/errors.js";
import {
  ScheduleBuilder,
  REARRANGE_KINDS,
  type Rearrange,
  type Schedule,
  type ScheduleHeader,
} from "../../src/model/schedule.js";
import { parseScheduleJsonText, readScheduleJson, scheduleToJsonText, writeScheduleJson } from "../../src/io/index.js";
import { errorOf } from "../helpers/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("schedule-json");

const HEADER: ScheduleHeader = {
  p: 4,
  algorithm: "test",
  params: { k: 2, name: "x", list: [1, "a", null], nested: { b: true } },
  seed: 42,
  elementBytes: 8,
  matrixDigest: "fnv1a64:0123456789abcdef",
};

/** A plan description that fast-check can shrink; indices are reduced mod p when built. */
interface PlanRecipe {
  p: number;
  payload: boolean;
  timed: boolean;
  seed: number | null;
  params: { [k: string]: number | string | boolean | null | number[] };
  stages: {
    name: string;
    rearrange: Rearrange;
    steps: { transfers: { src: number; dst: number; counts: number[]; t0: number; dt: number }[]; stalls: number[] }[];
  }[];
}

const recipeArb: fc.Arbitrary<PlanRecipe> = fc.record({
  p: fc.integer({ min: 1, max: 9 }),
  payload: fc.boolean(),
  timed: fc.boolean(),
  seed: fc.option(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { nil: null }),
  params: fc.dictionary(
    fc.string({ maxLength: 6 }),
    fc.oneof(
      fc.integer(),
      fc.string({ maxLength: 5 }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
    ),
    { maxKeys: 3 },
  ),
  stages: fc.array(
    fc.record({
      name: fc.string({ maxLength: 8 }),
      rearrange: fc.constantFrom(...REARRANGE_KINDS),
      steps: fc.array(
        fc.record({
          transfers: fc.array(
            fc.record({
              src: fc.nat(100),
              dst: fc.nat(100),
              counts: fc.array(fc.integer({ min: 1, max: 2 ** 40 }), { minLength: 1, maxLength: 3 }),
              t0: fc.nat(1_000_000),
              dt: fc.nat(1000),
            }),
            { maxLength: 5 },
          ),
          stalls: fc.array(fc.nat(100), { maxLength: 3 }),
        }),
        { maxLength: 4 },
      ),
    }),
    { maxLength: 4 },
  ),
});

function buildFromRecipe(r: PlanRecipe): Schedule {
  const b = new ScheduleBuilder({ ...HEADER, p: r.p, seed: r.seed, params: r.params }, r.payload, 16, r.timed);
  for (const st of r.stages) {
    b.stage(st.name, st.rearrange);
    for (const step of st.steps) {
      b.step();
      for (const t of step.transfers) {
        const size = t.counts.reduce((a, c) => a + c, 0);
        b.transfer(t.src % r.p, t.dst % r.p, size);
        if (r.payload) {
          let offset = 0;
          for (const c of t.counts) {
            b.chunk((t.src + t.dst) % r.p, t.dst % r.p, offset, c);
            offset += c;
          }
        }
        if (r.timed) b.times(t.t0 / 4, (t.t0 + t.dt) / 4); // quarters: fractional times
      }
      for (const s of new Set(step.stalls.map((u) => u % r.p))) b.stall(s); // a node stalls at most once per step
    }
  }
  return b.build();
}

/** The schedule as plain data; payload and times of a schedule without transfers are not representable in JSON. */
function plain(s: Schedule): unknown {
  const empty = s.transferCount === 0;
  return {
    ...s,
    stepStart: Array.from(s.stepStart),
    stallStart: Array.from(s.stallStart),
    stallNode: Array.from(s.stallNode),
    src: Array.from(s.src),
    dst: Array.from(s.dst),
    size: Array.from(s.size),
    chunks:
      empty || !s.chunks
        ? null
        : {
            start: Array.from(s.chunks.start),
            origin: Array.from(s.chunks.origin),
            dest: Array.from(s.chunks.dest),
            offset: Array.from(s.chunks.offset),
            count: Array.from(s.chunks.count),
          },
    times: empty || !s.times ? null : { start: Array.from(s.times.start), end: Array.from(s.times.end) },
  };
}

async function asyncErrorOf(f: () => Promise<unknown>): Promise<CommplanError> {
  try {
    await f();
  } catch (e) {
    if (isCommplanError(e)) return e;
    throw e;
  }
  throw new Error("expected a CommplanError");
}

/** A small valid document, one transfer per line, to break on purpose. */
function doc(transfers: string[], extra = ""): string {
  return [
    "{",
    '"format":"commplan.schedule/v1",',
    '"p":4,"algorithm":"t","params":{},"seed":null,"elementBytes":8,"matrixDigest":"d",' + extra,
    '"stages":[{"name":"s","rearrange":"none","steps":[{"transfers":[',
    transfers.join(",\n"),
    '],"stalls":[]}]}]',
    "}",
  ].join("\n");
}

describe("schedule JSON round trip", () => {
  it("read(write(s)) is s for random schedules (payload, times, stalls, empty stages and steps)", () => {
    fc.assert(
      fc.property(recipeArb, (r) => {
        const s = buildFromRecipe(r);
        const text = scheduleToJsonText(s);
        expect(plain(parseScheduleJsonText(text, "r.json"))).toEqual(plain(s));
        // deterministic bytes
        expect(scheduleToJsonText(parseScheduleJsonText(text))).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it("streams through files with every chunk size", async () => {
    await fc.assert(
      fc.asyncProperty(recipeArb, fc.integer({ min: 1, max: 64 }), async (r, hwm) => {
        const s = buildFromRecipe(r);
        const f = join(dir, "rt.json");
        await writeScheduleJson(s, f);
        expect(readFileSync(f, "utf8")).toBe(scheduleToJsonText(s));
        expect(plain(await readScheduleJson(f, { highWaterMark: hwm }))).toEqual(plain(s));
      }),
      { numRuns: 40 },
    );
  });

  it("keeps an empty schedule (no stages) and a stage with zero steps", () => {
    const b = new ScheduleBuilder(HEADER, false);
    const none = b.build();
    expect(plain(parseScheduleJsonText(scheduleToJsonText(none)))).toEqual(plain(none));
    const b2 = new ScheduleBuilder(HEADER, false).stage("empty", "compose").stage("one").step();
    b2.transfer(0, 1, 3);
    const s = b2.build();
    const back = parseScheduleJsonText(scheduleToJsonText(s));
    expect(back.stages).toEqual([
      { name: "empty", rearrange: "compose", firstStep: 0, stepCount: 0 },
      { name: "one", rearrange: "none", firstStep: 0, stepCount: 1 },
    ]);
    expect(plain(back)).toEqual(plain(s));
  });

  it("writes chunks only with payloads and start/end only with times", () => {
    const b = new ScheduleBuilder(HEADER, false).stage("a");
    b.transfer(0, 1, 2);
    const text = scheduleToJsonText(b.build());
    expect(text).not.toContain("chunks");
    expect(text).not.toContain("start");
    expect(text).toContain('{"src":0,"dst":1,"size":2}');
    const bp = new ScheduleBuilder(HEADER, true, 4, true).stage("a");
    bp.transfer(0, 1, 2);
    bp.chunk(0, 1, 0, 2).times(1.5, 2.25);
    expect(scheduleToJsonText(bp.build())).toContain(
      '{"src":0,"dst":1,"size":2,"chunks":[[0,1,0,2]],"start":1.5,"end":2.25}',
    );
    // a time that is not a finite number >= 0 is refused before anything is written (the schedule check)
    const bad = new ScheduleBuilder(HEADER, false, 4, true).stage("a");
    bad.transfer(0, 1, 2);
    bad.times(1, Number.POSITIVE_INFINITY);
    expect(errorOf(() => scheduleToJsonText(bad.build())).message).toBe(
      "schedule: the schedule is not well formed: transfer 0: times 1..Infinity are not finite numbers >= 0",
    );
  });
});

describe("schedule JSON round trip (continued)", () => {
  it("reads about 300k transfers with payloads through the streaming path, tokens split across chunks", async () => {
    const p = 64;
    const b = new ScheduleBuilder({ ...HEADER, p }, true, 300_000);
    b.stage("exchange", "compose");
    let n = 0;
    for (let k = 0; n < 300_000; k++) {
      b.step();
      for (let i = 0; i < p; i++, n++) {
        const size = 1 + ((i * 31 + k * 17) % 1000);
        b.transfer(i, (i + k) % p, size);
        b.chunk(i, (i + k) % p, 0, size - Math.floor(size / 2));
        if (size > 1) b.chunk((i + 1) % p, (i + k) % p, 7, Math.floor(size / 2));
      }
      if (k % 10 === 0) b.stall(k % p);
    }
    const s = b.build();
    const f = join(dir, "big.json");
    await writeScheduleJson(s, f);
    // 4093 bytes per read: a prime, so tokens of every kind land on chunk boundaries
    const back = await readScheduleJson(f, { highWaterMark: 4093 });
    expect(back.transferCount).toBe(s.transferCount);
    expect(back.chunks!.origin.length).toBe(s.chunks!.origin.length);
    const header = (x: Schedule): unknown => [
      x.p,
      x.algorithm,
      x.params,
      x.seed,
      x.elementBytes,
      x.matrixDigest,
      x.stages,
      x.stepCount,
      x.transferCount,
      x.times,
    ];
    expect(header(back)).toEqual(header(s));
    const cols = (x: Schedule): ArrayBufferView[] => [
      x.src,
      x.dst,
      x.size,
      x.stepStart,
      x.stallStart,
      x.stallNode,
      x.chunks!.start,
      x.chunks!.origin,
      x.chunks!.dest,
      x.chunks!.offset,
      x.chunks!.count,
    ];
    const bytes = (v: ArrayBufferView): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    cols(back).forEach((col, k) => expect(bytes(col).equals(bytes(cols(s)[k]!)), `column ${k}`).toBe(true));
  });

  it("writes to a temporary file and renames it, leaving nothing behind on failure", async () => {
    const sub = mkdtempSync(join(dir, "atomic-"));
    const target = join(sub, "out.json");
    const b = new ScheduleBuilder(HEADER, false).stage("a");
    for (let k = 0; k < 100_000; k++) b.transfer(0, 1, 1);
    // a file checks its plain transfers as it writes them (megabytes before this one): the same error, nothing left
    b.transfer(0, 1, Number.NaN);
    const e = await asyncErrorOf(() => writeScheduleJson(b.build(), target));
    expect(e.message).toMatch(
      /^schedule: the schedule is not well formed: transfer 100000: size NaN is not a positive integer$/,
    );
    expect(readdirSync(sub)).toEqual([]);
    // an existing file is replaced whole or not at all
    writeFileSync(target, "old");
    await asyncErrorOf(() => writeScheduleJson(b.build(), target));
    expect(readFileSync(target, "utf8")).toBe("old");
    expect(readdirSync(sub)).toEqual(["out.json"]);
    // a node out of range, found part-way, is the schedule check's error too
    const far = new ScheduleBuilder(HEADER, false).stage("a");
    for (let k = 0; k <= 50_000; k++) far.transfer(0, 1, 1);
    // the builder refuses the node where it is given: the schedule object is edited after it is built
    const farSchedule = far.build();
    farSchedule.dst[50_000] = HEADER.p;
    const node = await asyncErrorOf(() => writeScheduleJson(farSchedule, join(sub, "far.json")));
    expect(node.message).toBe(
      `schedule: the schedule is not well formed: transfer 50000: node ${HEADER.p} is not in 0..${HEADER.p - 1}`,
    );
    expect(readdirSync(sub)).toEqual(["out.json"]);
    // standard output is written as it goes: the schedule is refused before its first byte
    const sink = new PassThrough();
    const seen: Buffer[] = [];
    sink.on("data", (c: Buffer) => seen.push(c));
    const out = await asyncErrorOf(() => writeScheduleJson(b.build(), "-", { stdout: sink }));
    expect(out.message).toBe(e.message);
    expect(seen).toEqual([]);
  });

  it("reports a missing directory or file as IO", async () => {
    const s = new ScheduleBuilder(HEADER, false).build();
    const w = await asyncErrorOf(() => writeScheduleJson(s, join(dir, "no-such-dir", "x.json")));
    expect(w.code).toBe("IO");
    expect(w.message).toMatch(/^schedule: .*x\.json: cannot write: the directory .*no-such-dir does not exist$/);
    const r = await asyncErrorOf(() => readScheduleJson(join(dir, "missing.json")));
    expect(r.code).toBe("IO");
    expect(r.message).toMatch(/^schedule: .*missing\.json: no such file$/);
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
  });
});

describe("schedule JSON errors", () => {
  const t = (s: string): string => s;

  it("names line and column of a syntax error", () => {
    const e = errorOf(() =>
      parseScheduleJsonText(doc(['{"src":0,"dst":1,"size":1}', '{"src":0,"dst":1,"size":}']), "s.json"),
    );
    expect(e.code).toBe("BAD_INPUT");
    expect(e.message).toBe("schedule: s.json:line 6: unexpected '}' (expected a value) (column 25)");
    expect(e.place.line).toBe(6);
    expect(errorOf(() => parseScheduleJsonText('{"format":"commplan.schedule/v1",\n"p":4', "s.json")).message).toMatch(
      /line 2: unexpected end of input \(1 unclosed bracket\)/,
    );
    expect(errorOf(() => parseScheduleJsonText("", "s.json")).message).toMatch(/the document is empty/);
  });

  it("names the JSON path and line of a schema error in the bulk", () => {
    const e = errorOf(() =>
      parseScheduleJsonText(
        doc(['{"src":0,"dst":1,"size":1}', '{"src":0,"dst":1,"size":1}', '{"src":1.5,"dst":1,"size":1}']),
        "s.json",
      ),
    );
    expect(e.message).toBe("schedule: s.json:line 7: /stages/0/steps/0/transfers/2/src must be integer");
    expect(e.place.field).toBe("/stages/0/steps/0/transfers/2/src");
    const cases: [string, RegExp][] = [
      [t('{"src":-1,"dst":1,"size":1}'), /transfers\/0\/src must be >= 0/],
      [t('{"src":0,"dst":1,"size":0}'), /transfers\/0\/size must be >= 1/],
      [t('{"src":0,"dst":1}'), /transfers\/0 must have required property 'size'/],
      [t('{"src":0,"dst":1,"size":1,"color":2}'), /transfers\/0 must NOT have additional properties \('color'\)/],
      [t('{"src":0,"dst":1,"size":1,"chunks":[[0,1,0]]}'), /chunks\/0 must NOT have fewer than 4 items/],
      [t('{"src":0,"dst":1,"size":1,"chunks":[[0,1,0,1,5]]}'), /chunks\/0 must NOT have more than 4 items/],
      [t('{"src":0,"dst":1,"size":1,"chunks":[[0,1,0,0]]}'), /chunks\/0\/3 must be >= 1/],
      [t('{"src":"0","dst":1,"size":1}'), /transfers\/0\/src must be integer/],
      [t('{"src":0,"dst":1,"size":1,"src":0}'), /has the key 'src' twice/],
      [t('{"src":0,"dst":1,"size":1,"a\\nb":0}'), /transfers\/0 must NOT have additional properties \("a\\nb"\)$/],
    ];
    for (const [tr, re] of cases) expect(errorOf(() => parseScheduleJsonText(doc([tr]))).message).toMatch(re);
  });

  it("checks the header with the schema and rejects a wrong format as BAD_FORMAT", () => {
    const wrong = errorOf(() =>
      parseScheduleJsonText(doc([]).replace("commplan.schedule/v1", "commplan.matrix/v1"), "m.json"),
    );
    expect(wrong.code).toBe("BAD_FORMAT");
    expect(wrong.message).toBe('schedule: m.json: /format is "commplan.matrix/v1", expected "commplan.schedule/v1"');
    expect(errorOf(() => parseScheduleJsonText(doc([]).replace('"seed":null', '"seed":"x"'))).message).toMatch(
      /\/seed must be integer,null/,
    );
    expect(
      errorOf(() => parseScheduleJsonText(doc([]).replace('"rearrange":"none"', '"rearrange":"shuffle"'))).message,
    ).toMatch(/\/stages\/0\/rearrange must be equal to one of the allowed values/);
    expect(errorOf(() => parseScheduleJsonText(doc([], '"extra":1,'))).message).toMatch(
      /^schedule: \/ must NOT have additional properties \('extra'\)/,
    );
    expect(errorOf(() => parseScheduleJsonText("[1,2]")).code).toBe("BAD_FORMAT");
    expect(errorOf(() => parseScheduleJsonText('{"p":4}')).message).toMatch(/the 'format' field is missing/);
  });

  it("checks the meaning: node indices, sizes, payload on all or none, times", () => {
    const cases: [string[], RegExp][] = [
      [
        ['{"src":0,"dst":4,"size":1}'],
        /^schedule: s\.json: \/stages\/0\/steps\/0\/transfers\/0\/dst = 4 is not a node index in 0\.\.3$/,
      ],
      [['{"src":0,"dst":1,"size":3,"chunks":[[0,1,0,2]]}'], /transfers\/0\/size = 3 but its chunks hold 2 elements/],
      [
        ['{"src":0,"dst":1,"size":1,"chunks":[[9,1,0,1]]}'],
        /transfers\/0\/chunks\/0\/0 \(origin\) = 9 is not a node index/,
      ],
      [
        ['{"src":0,"dst":1,"size":1,"chunks":[[0,1,0,1]]}', '{"src":0,"dst":1,"size":1}'],
        /transfers\/1 has no 'chunks' but \/stages\/0\/steps\/0\/transfers\/0 has/,
      ],
      [['{"src":0,"dst":1,"size":1,"start":2,"end":1}'], /transfers\/0 ends before it starts/],
      [['{"src":0,"dst":1,"size":1,"start":2}'], /transfers\/0 has 'start' without 'end'/],
      [
        ['{"src":0,"dst":1,"size":1,"start":0,"end":1}', '{"src":0,"dst":1,"size":1}'],
        /transfers\/1 has no 'start' and 'end'/,
      ],
      // indices past 2^32 - 1 are shown as given, not as the clamped 4294967295
      [['{"src":4294967297,"dst":1,"size":1}'], /transfers\/0\/src = 4294967297 is not a node index in 0\.\.3$/],
      [
        [
          '{"src":0,"dst":1,"size":1,"chunks":[[0,1,0,1]]}',
          '{"src":0,"dst":1,"size":1,"chunks":[[0,99999999999,0,1]]}',
        ],
        /transfers\/1\/chunks\/0\/1 \(dest\) = 99999999999 is not a node index/,
      ],
    ];
    for (const [trs, re] of cases) {
      const e = errorOf(() => parseScheduleJsonText(doc(trs), "s.json"));
      expect(e.code).toBe("BAD_INPUT");
      expect(e.message).toMatch(re);
    }
    const stall = doc([]).replace('"stalls":[]', '"stalls":[1,7]');
    expect(errorOf(() => parseScheduleJsonText(stall)).message).toMatch(
      /\/stages\/0\/steps\/0\/stalls\/1 = 7 is not a node index/,
    );
    expect(
      errorOf(() => parseScheduleJsonText(doc([]).replace('"stalls":[]', '"stalls":[1,4294967296]'))).message,
    ).toMatch(/stalls\/1 = 4294967296 is not a node index/);
    // a path through empty steps and a second stage
    const two = doc(['{"src":0,"dst":1,"size":1}']).replace(
      "]}]}]",
      ']},{"transfers":[],"stalls":[]}]},{"name":"b","rearrange":"collect","steps":[{"transfers":[],"stalls":[]},{"transfers":[{"src":5,"dst":0,"size":1}],"stalls":[]}]}]',
    );
    expect(errorOf(() => parseScheduleJsonText(two)).message).toMatch(/\/stages\/1\/steps\/1\/transfers\/0\/src = 5 /);
  });
});
