/** quoted and jsonExcerpt: input text in messages, one line, cut with its own length said. */
import { describe, expect, it } from "vitest";
import { jsonExcerpt, MAX_QUOTED } from "../../src/internal/quoted.js";
import { checkEntryId } from "../../src/store/store-dir.js";
import { errorOf } from "../helpers/errors.js";

describe("jsonExcerpt", () => {
  it("says a cut string's own length, not its JSON text's (no quotes, no escapes counted)", () => {
    const id = "A".repeat(64);
    expect(jsonExcerpt(id)).toBe(`"${"A".repeat(MAX_QUOTED - 4)}... (64 characters)`);
    expect(jsonExcerpt("\n".repeat(50))).toMatch(/ \(50 characters\)$/);
    // not a string: the JSON text's length
    const list = Array.from({ length: 30 }, (_, k) => k);
    expect(jsonExcerpt(list)).toMatch(new RegExp(` \\(${JSON.stringify(list).length} characters\\)$`));
    expect(jsonExcerpt("short")).toBe('"short"');
  });

  it("store get --id's refusal of an uppercase id says its 64 characters", () => {
    expect(errorOf(() => checkEntryId("F".repeat(64), "--id")).message).toMatch(/\(64 characters\)$/);
  });
});
