/**
 * The store's log read in bounded memory (creationRecords): a line longer than the cap is passed over, never joined
 * whole (one without a newline at the end of a large log too); a record cut by a 1 MiB piece's end (a UTF-8 character
 * included) is read whole; only the records of the ids asked for are kept, however many lines name other ids; an `add`
 * that is not 64 lowercase hex digits is not a record.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { creationRecordOf, creationRecords } from "../../src/store/store-log.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A 64-hex-digit id made of `n`. */
const idOf = (n: number): string => n.toString(16).padStart(64, "0");
const line = (id: string, host: string, pid = 1): string => JSON.stringify({ add: id, host, pid, time: "t" }) + "\n";

describe("creationRecords: the store's log in bounded memory", () => {
  it("a 12 MB line (in the middle, and at the end without a newline) is passed over; the records beside it are read", () => {
    const d = tempDir("log-long-line");
    const file = join(d, "log");
    const long = `{"add": "${idOf(1)}", "host": "${"x".repeat(12e6)}", "pid": 1, "time": "t"}`;
    writeFileSync(file, line(idOf(1), "a") + long + "\n" + line(idOf(2), "b") + long);
    const got = creationRecords(file, new Set([idOf(1), idOf(2)]));
    expect(Object.fromEntries(got)).toEqual({
      [idOf(1)]: { host: "a", pid: 1, time: "t" }, // the long line for id 1 after it is not a record
      [idOf(2)]: { host: "b", pid: 1, time: "t" },
    });
  });

  it("a record cut by a piece's end (inside a UTF-8 character) is read whole; a 10 KB host is kept", () => {
    const d = tempDir("log-piece-end");
    const file = join(d, "log");
    const first = line(idOf(1), "h".repeat(10_000));
    const pad = "x".repeat((1 << 20) - first.length - 40) + "\n"; // not a record
    const cut = line(idOf(2), "é".repeat(40), 3); // its bytes cross 1 MiB, a two-byte character among them
    writeFileSync(file, first + pad + cut);
    expect(Buffer.byteLength(first + pad)).toBeLessThan(1 << 20);
    expect(Buffer.byteLength(first + pad + cut)).toBeGreaterThan(1 << 20);
    const got = creationRecords(file, new Set([idOf(1), idOf(2)]));
    expect(got.get(idOf(1))).toEqual({ host: "h".repeat(10_000), pid: 1, time: "t" });
    expect(got.get(idOf(2))).toEqual({ host: "é".repeat(40), pid: 3, time: "t" });
  });

  it("100 000 lines for ids not asked for keep no record; the last line of an id asked for wins", () => {
    const d = tempDir("log-absent-ids");
    const file = join(d, "log");
    const lines: string[] = [line(idOf(7), "first")];
    for (let i = 100; i < 100_100; i++) lines.push(line(idOf(i), "absent"));
    lines.push(line(idOf(7), "last", 9));
    writeFileSync(file, lines.join(""));
    const got = creationRecords(file, new Set([idOf(7), idOf(8)]));
    expect([...got.keys()]).toEqual([idOf(7)]); // one record kept, not 100 001
    expect(got.get(idOf(7))).toEqual({ host: "last", pid: 9, time: "t" });
  });

  it("an add that is not 64 lowercase hex digits is not a record; a missing log gives none", () => {
    const d = tempDir("log-bad-add");
    const file = join(d, "log");
    const upper = idOf(0xabc).toUpperCase();
    writeFileSync(file, line(upper, "u") + line("abc", "short") + line(idOf(1) + "0", "long"));
    expect(creationRecords(file, new Set([upper, "abc", idOf(1) + "0"])).size).toBe(0);
    expect(creationRecords(join(d, "none"), new Set([idOf(1)])).size).toBe(0);
  });

  it("creationRecordOf: a record only when host and time are strings and pid a non-negative safe integer", () => {
    expect(creationRecordOf({ host: "h", pid: 1, time: "t" })).toEqual({ host: "h", pid: 1, time: "t" });
    for (const bad of ["yesterday", null, 5, [], { host: "h", pid: 1, time: 5 }, { host: "h", pid: -1, time: "t" }])
      expect(creationRecordOf(bad)).toBeNull();
  });
});
