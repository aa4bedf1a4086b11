/** cliMessage: the library's messages name options; the command line names its flags, in today's words. */
import { describe, expect, it } from "vitest";
import { cliMessage } from "../../src/cli/option-flags.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { checkMemory } from "../../src/model/memory-budget.js";

/** The message of what f throws. */
function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected a throw");
}

describe("cliMessage", () => {
  it("writes every option a library message names as the command's flag", () => {
    expect(cliMessage(messageOf(() => checkMemory("m", 5 * 2 ** 30, "a thing", 2 ** 30)))).toBe(
      "m: a thing needs about 5 GiB, past the memory budget of 1 GiB (raise it with --max-memory, e.g. --max-memory 5G)",
    );
    expect(cliMessage(messageOf(() => generatePattern("spmv", 4, {}, 1)))).toMatch(
      /^patterns: pattern 'spmv' needs a sparse matrix: --file path\.mtx \(a Matrix Market/,
    );
    const a = { rows: 2, cols: 2, rowStart: Int32Array.of(0, 1, 1), colIndex: Int32Array.of(1) };
    expect(cliMessage(messageOf(() => generatePattern("uniform", 4, {}, 1, { sparse: a })))).toBe(
      "patterns: pattern 'uniform' reads no file; it takes no --file",
    );
    expect(
      cliMessage(
        "program-json: p.json: 9 bytes is past the reader's limit of 8: write the program split by rank (writeProgramSplit)",
      ),
    ).toBe("program-json: p.json: 9 bytes is past the reader's limit of 8: write the program with --split");
    expect(
      cliMessage("lower: x relays elements: plan with the option payload (its transfers 0 -> 1 carry 2 elements)"),
    ).toBe("lower: x relays elements: plan with --payload (its transfers 0 -> 1 carry 2 elements)");
  });

  it("leaves a message that names no option as it is", () => {
    expect(cliMessage("matrix: row 3 has 7 entries, expected 8")).toBe("matrix: row 3 has 7 entries, expected 8");
  });
});
