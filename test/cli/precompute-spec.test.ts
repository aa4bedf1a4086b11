/**
 * The precompute spec is read as every JSON document commplan reads: a byte-order mark skipped, UTF-16 named, a key
 * given twice refused (it silently took the last: another P planned), a limit on its bytes (/dev/zero was read until
 * memory ran out) and on the jobs it expands to (a 790 KB spec of 1.6 billion jobs ended in V8's out-of-memory abort).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { MAX_SPEC_JOBS } from "../../src/cli/precompute-jobs.js";

const SPEC = '{"patterns":["uniform"],"p":[8],"seeds":[1],"algorithms":["shift"]}';

/** Runs precompute on a spec file holding `bytes` (a path given as is when `bytes` is null). */
async function precompute(bytes: Buffer | string | null, path?: string) {
  const d = tempDir("precompute-spec");
  const file = path ?? join(d, "spec.json");
  if (bytes !== null) writeFileSync(file, bytes);
  const r = await run("precompute", file, "--store", join(d, "S"));
  return { ...r, d, file };
}

describe("precompute spec reader", () => {
  it("skips a UTF-8 byte-order mark, as every reader does", async () => {
    const r = await precompute(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SPEC)]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/1 job: 1 added/);
  });

  it("names the file and the field of an unknown name, machines as patterns and algorithms", async () => {
    const spec = (field: string, list: string): string =>
      JSON.stringify({ ...(JSON.parse(SPEC) as object), [field]: JSON.parse(list) as unknown });
    const machine = await precompute(spec("machines", '["t3d-004", "t3d"]'));
    expect(machine.code).toBe(2);
    expect(machine.err).toMatch(
      new RegExp(
        `^precompute: ${machine.file}: /machines/1: unknown machine 't3d' \\(did you mean t3d-004 or t3d-002\\?\\)`,
      ),
    );
    const algorithm = await precompute(spec("algorithms", '["shfit"]'));
    expect(algorithm.err).toMatch(
      new RegExp(`^precompute: ${algorithm.file}: /algorithms/0: .*'shfit'.*did you mean shift`),
    );
    const pattern = await precompute(spec("patterns", '["unifrom"]'));
    expect(pattern.err).toMatch(
      new RegExp(`^precompute: ${pattern.file}: /patterns/0: .*'unifrom'.*did you mean uniform`),
    );
    for (const r of [machine, algorithm, pattern]) expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("refuses a key given twice, naming it and its line (it planned the last one's P)", async () => {
    const r = await precompute('{"patterns":["uniform"],\n"p":[8],\n"p":[16],"seeds":[1],"algorithms":["shift"]}');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`precompute: ${r.file}:line 3: / has the key 'p' twice\n`);
  });

  it("names UTF-16 text in one line", async () => {
    const r = await precompute(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SPEC, "utf16le")]));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `precompute: ${r.file}: is UTF-16 text (it begins with the byte-order mark 0xff 0xfe); commplan reads UTF-8: ` +
        "convert it, e.g. iconv -f UTF-16 -t UTF-8\n",
    );
  });

  it("refuses a device that never ends at the spec's limit, in one line", async () => {
    const r = await precompute(null, "/dev/zero");
    expect(r.code).toBe(2);
    expect(r.err).toBe("precompute: /dev/zero: more than the 1048576 bytes a spec may have\n");
  });

  it("refuses a spec of more jobs than it runs before listing them", async () => {
    const p = Array.from({ length: 16384 }, (_, k) => k + 1);
    const seeds = Array.from({ length: 100000 }, (_, k) => k);
    const r = await precompute(JSON.stringify({ patterns: ["uniform"], p, seeds, algorithms: ["shift"] }));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `precompute: ${r.file}: the spec lists 1638400000 jobs (patterns x p x seeds x machines x algorithms), more ` +
        `than the ${MAX_SPEC_JOBS} one precompute runs: split it into several specs\n`,
    );
  });

  it("keeps a syntax error one line with its place", async () => {
    const r = await precompute('{"patterns":["uniform"],\n"p":[8,]}');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^precompute: .*spec\.json:line 2: not valid JSON: [^\n]*\n$/);
  });
});
