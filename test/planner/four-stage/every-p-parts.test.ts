/** The every-p-mod4-*.test.ts files together cover every P in 1..300 exactly once. */
import { describe, expect, it } from "vitest";
import { EVERY_P_FILES, EVERY_P_MAX, everyPPart } from "./every-p-cases.js";

describe("every-p parts", () => {
  it("deal 1..300 over the four files, each P once", () => {
    expect(EVERY_P_FILES).toBe(4);
    const all = [0, 1, 2, 3].flatMap(everyPPart).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: EVERY_P_MAX }, (_, k) => k + 1));
  });
});
