/** writePieces: atomic writes of regular files through symbolic links, in-place writes of FIFOs, sockets and /dev/null, and no temporary file left on a signal. */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../src/model/errors.js";
import { Writable } from "node:stream";
import { checkOutputTargets, writeOutputs, writePieces } from "../../src/io/file-output.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("file-output");

/** The temporary files left in a directory. */
const temps = (d: string): string[] => readdirSync(d).filter((n) => n.endsWith(".tmp"));

/** Makes a FIFO at `path` and starts a reader: `got` resolves with what it read once the writer closes; `stop` ends it (when no writer came). */
function fifoWithReader(path: string): { got: Promise<string>; stop: () => void } {
  expect(spawnSync("mkfifo", [path]).status).toBe(0);
  const cat = spawn("cat", [path], { stdio: ["ignore", "pipe", "inherit"] });
  let got = "";
  cat.stdout.on("data", (d: Buffer) => void (got += d.toString()));
  return { got: new Promise((resolve) => cat.on("close", () => resolve(got))), stop: () => void cat.kill() };
}

describe("writePieces: where the bytes go", () => {
  it("a symbolic link is followed and kept: the file it points to gets the text (temporary file beside it), with its permission bits", async () => {
    const d = join(dir, "link"),
      real = join(d, "real");
    mkdirSync(real, { recursive: true });
    writeFileSync(join(real, "f.txt"), "old");
    chmodSync(join(real, "f.txt"), 0o600);
    symlinkSync("real/f.txt", join(d, "link.txt"));
    await writePieces(["new ", "text"], join(d, "link.txt"), "t");
    expect(lstatSync(join(d, "link.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(real, "f.txt"), "utf8")).toBe("new text");
    expect(statSync(join(real, "f.txt")).mode & 0o777).toBe(0o600);
    // a link that dangles creates the file it names, and stays a link
    symlinkSync("real/new.txt", join(d, "dangling.txt"));
    await writePieces(["created"], join(d, "dangling.txt"), "t");
    expect(lstatSync(join(d, "dangling.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(real, "new.txt"), "utf8")).toBe("created");
    expect([...temps(d), ...temps(real)]).toEqual([]);
  });

  it("a FIFO is written in place (its reader gets the text, it stays a FIFO); so is /dev/null, which stays a character device", async () => {
    const fifo = join(dir, "fifo");
    const reader = fifoWithReader(fifo);
    try {
      await writePieces(["through ", "the pipe\n"], fifo, "t");
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    } catch (e) {
      reader.stop(); // a replaced FIFO never gets a writer
      throw e;
    }
    expect(await reader.got).toBe("through the pipe\n");
    expect(temps(dir)).toEqual([]);
    // only after the FIFO proved the in-place branch: a regression must not replace the real /dev/null
    await writePieces(["discarded"], "/dev/null", "t");
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });

  it("a socket is not replaced: one line naming the target", async () => {
    const sock = join(dir, "sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const e: unknown = await writePieces(["x"], sock, "t").then(
        () => null,
        (err: unknown) => err,
      );
      expect(isCommplanError(e)).toBe(true);
      expect((e as Error).message).toBe(
        `t: ${sock}: cannot write: no such device or address (a socket cannot be opened as a file)`,
      );
      expect(lstatSync(sock).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a directory is refused, not replaced", async () => {
    mkdirSync(join(dir, "adir"));
    await expect(writePieces(["x"], join(dir, "adir"), "t")).rejects.toThrow(`t: ${join(dir, "adir")}: is a directory`);
    expect(statSync(join(dir, "adir")).isDirectory()).toBe(true);
  });
});

describe("writePieces: the output options", () => {
  it("a target the user cannot write (another user's file: the access check fails) is not replaced", async () => {
    const theirs = join(dir, "theirs.json");
    writeFileSync(theirs, "keep");
    const canReplace = async (path: string): Promise<boolean> => !path.endsWith("theirs.json");
    await expect(writePieces(["x"], theirs, "plan", { canReplace })).rejects.toThrow(
      /^plan: .*theirs\.json: cannot write: the file is read-only/,
    );
    expect(readFileSync(theirs, "utf8")).toBe("keep");
    await writePieces(["mine"], join(dir, "mine.json"), "plan", { canReplace });
    expect(readFileSync(join(dir, "mine.json"), "utf8")).toBe("mine");
  });

  it('"-" is written to the stream the options give, not to the process\'s stdout', async () => {
    let got = "";
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        got += chunk.toString();
        done();
      },
    });
    await writePieces(["to ", "the sink"], "-", "t", { stdout });
    expect(got).toBe("to the sink");
  });
});

describe("writePieces: no temporary file left behind", () => {
  const lib = pathToFileURL(join(import.meta.dirname, "..", "..", "dist", "io", "file-output.js")).href;
  const script = join(dir, "interrupted.mjs");
  // writes 1 MiB, then raises the signal (or exits), then would write 16 MiB more
  writeFileSync(
    script,
    `import { writePieces } from ${JSON.stringify(lib)};
const [target, how] = process.argv.slice(2);
function* pieces() {
  yield "x".repeat(1 << 20);
  if (how === "exit") process.exit(3);
  process.kill(process.pid, how);
  for (let k = 0; k < 16; k++) yield "y".repeat(1 << 20);
}
await writePieces(pieces(), target, "t");
`,
  );
  for (const how of ["SIGINT", "SIGTERM", "exit"]) {
    it(`${how} while writing removes the temporary file and ends the process as ${how} would`, () => {
      const d = join(dir, `sig-${how}`);
      mkdirSync(d);
      const r = spawnSync(process.execPath, [script, join(d, "out.json"), how], { encoding: "utf8" });
      expect(r.stderr).toBe("");
      if (how === "exit") expect(r.status).toBe(3);
      else expect(r.signal).toBe(how);
      expect(readdirSync(d)).toEqual([]);
      expect(existsSync(join(d, "out.json"))).toBe(false);
    });
  }
});

describe("writeOutputs and checkOutputTargets: several outputs, all or none", () => {
  it("an output whose pieces throw leaves none of the others: no new file, an old one unchanged, no temporary file", async () => {
    const d = join(dir, "all-or-none");
    mkdirSync(d);
    writeFileSync(join(d, "old.txt"), "before\n");
    const broken = function* (): Generator<string> {
      yield "half";
      throw new Error("refused part-way");
    };
    await expect(
      writeOutputs("test", [
        { target: join(d, "new.txt"), pieces: ["new\n"] },
        { target: join(d, "old.txt"), pieces: ["after\n"] },
        { target: join(d, "last.txt"), pieces: broken() },
      ]),
    ).rejects.toThrow("refused part-way");
    expect(readdirSync(d)).toEqual(["old.txt"]);
    expect(readFileSync(join(d, "old.txt"), "utf8")).toBe("before\n");
    await writeOutputs("test", [
      { target: join(d, "new.txt"), pieces: ["new\n"] },
      { target: join(d, "old.txt"), pieces: ["after\n"] },
    ]);
    expect(readdirSync(d).sort()).toEqual(["new.txt", "old.txt"]);
    expect(readFileSync(join(d, "old.txt"), "utf8")).toBe("after\n");
  });

  it("checkOutputTargets names the first bad target and leaves nothing behind", async () => {
    const d = join(dir, "check");
    mkdirSync(d);
    await checkOutputTargets("test", [
      ["-o", join(d, "a.txt")],
      ["--x", undefined],
      ["--y", "-"],
      ["--z", "/dev/null"],
    ]);
    expect(readdirSync(d)).toEqual([]);
    const err = await checkOutputTargets("test", [
      ["-o", join(d, "a.txt")],
      ["--svg", join(d, "missing", "g.svg")],
    ]).catch((e: unknown) => e);
    expect(isCommplanError(err)).toBe(true);
    expect((err as Error).message).toBe(
      `test: ${join(d, "missing", "g.svg")}: cannot write: the directory ${join(d, "missing")} does not exist`,
    );
    await expect(checkOutputTargets("test", [["-o", "/proc/x.txt"]])).rejects.toThrow(
      "test: /proc/x.txt: cannot create a file in /proc",
    );
    expect(readdirSync(d)).toEqual([]);
  });
});
