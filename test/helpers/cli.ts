/** Test helper: runs the commplan CLI in process with captured output. */
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

/** Runs `commplan ...argv` in process; returns its exit code and what it wrote to stdout and stderr. */
export async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "",
    err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), interactive: false };
  const code = await main(argv, io);
  return { code, out, err };
}
