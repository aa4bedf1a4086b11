/** store gc's last line names what failed by each failure's kind, never by the wording of its problem. */
import { describe, expect, it } from "vitest";
import { gcFailedText } from "../../src/cli/commands/store-gc-failed.js";

describe("gcFailedText", () => {
  it("counts paths not removed and directories not made anew by kind, whatever the problem says", () => {
    const remove = { file: "a", problem: "cannot make it anew: worded like a remake", kind: "remove" } as const;
    const remake = { file: "b", problem: "cannot remove: worded like a remove", kind: "remake" } as const;
    expect(gcFailedText([remove])).toBe("could not remove 1 path");
    expect(gcFailedText([remake])).toBe("could not make 1 directory anew");
    expect(gcFailedText([remove, remake, remove, remake])).toBe(
      "could not remove 2 paths and could not make 2 directories anew",
    );
  });
});
