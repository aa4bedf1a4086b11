/**
 * readScheduleFile on Arrow files: a file cut short is refused from its last bytes before it is read whole, and a file
 * past 2 GiB (a plan store entry, which may be 4 GiB, written by store get -f arrow) is read, not refused by Node.
 */
import { closeSync, openSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { tableFromIPC, tableToIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readScheduleFile } from "../../src/io/schedule-read.js";
import { encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/index.js";
import { tempDir } from "../helpers/temp-dir.js";

const GiB = 1024 ** 3;

describe("readScheduleFile: Arrow files", () => {
  it("reads a whole Arrow schedule, and refuses one cut short by its missing end magic", async () => {
    const m = generatePattern("uniform", 6, {}, 1);
    const bytes = encodeScheduleArrow(plan(m, "shift"));
    const d = tempDir("schedule-read-arrow");
    writeFileSync(join(d, "s.arrow"), bytes);
    expect((await readScheduleFile(join(d, "s.arrow"))).p).toBe(6);
    writeFileSync(join(d, "cut.arrow"), bytes.subarray(0, bytes.length - 3));
    await expect(readScheduleFile(join(d, "cut.arrow"))).rejects.toThrow(
      /^schedule: .*cut\.arrow: an Arrow file that is not a readable commplan schedule: it does not end with Arrow's magic bytes \(cut short\?\)$/,
    );
  });

  it("refuses an Arrow IPC stream (pyarrow's ipc.new_stream) by name, from a file and from standard input", async () => {
    const m = generatePattern("uniform", 6, {}, 1);
    const file = encodeScheduleArrow(plan(m, "shift"));
    const stream = tableToIPC(tableFromIPC(file), "stream"); // the same table and metadata, as a stream
    expect(Buffer.from(stream.subarray(0, 4)).toString("hex")).toBe("ffffffff");
    const d = tempDir("schedule-read-arrow");
    writeFileSync(join(d, "s.arrows"), stream);
    await expect(readScheduleFile(join(d, "s.arrows"))).rejects.toThrow(
      /^schedule: .*s\.arrows: an Arrow IPC stream, not an Arrow IPC file: commplan reads the file format \(pyarrow: /,
    );
    // standard input (JSON only) says what the bytes may be
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    const r = spawnSync(process.execPath, [bin, "show", "-"], { input: Buffer.from(stream), encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /line 1: unexpected byte 0xff.* \(an Arrow IPC stream\? standard input is read as JSON, and Arrow only as an IPC/,
    );
  });

  it("a file past 2 GiB is read and judged by the decoder (Node's readFile refuses it: 'greater than 2 GiB')", async () => {
    const d = tempDir("schedule-read-arrow");
    const file = join(d, "big.arrow");
    writeFileSync(file, "ARROW1");
    const size = 2 * GiB + 16;
    truncateSync(file, size); // sparse: zeros between the magic bytes at both ends
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.from("ARROW1"), 0, 6, size - 6);
    closeSync(fd);
    await expect(readScheduleFile(file, { maxMemory: 8 * GiB })).rejects.toThrow(
      /^schedule: .*big\.arrow: an Arrow file that is not a readable commplan schedule: not an Arrow IPC file/,
    );
  });
});
