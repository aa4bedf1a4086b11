/** fmtNumber: every figure the tables print is true to its last digit; textTable: every cell on one line. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fmtNumber, textTable } from "../../src/compare/compare-format.js";

const parse = (s: string): number => Number(s.replace(/,/g, ""));

describe("fmtNumber", () => {
  it("prints a non-integer from 1,000 up to the whole unit, as exact as the integers beside it", () => {
    expect(fmtNumber(620_004_170.3)).toBe("620,004,170");
    expect(fmtNumber(951_325_445)).toBe("951,325,445");
    expect(fmtNumber(12_345.6)).toBe("12,346");
    expect(fmtNumber(1_234.4)).toBe("1,234");
    expect(fmtNumber(-20_408.2)).toBe("-20,408");
    // below 1,000: 4 significant digits, as before
    expect(fmtNumber(123.456)).toBe("123.5");
    expect(fmtNumber(999.96)).toBe("1,000");
    expect(fmtNumber(0.012345)).toBe("0.01235");
    expect(fmtNumber(null)).toBe("-");
    expect(fmtNumber(Infinity)).toBe("Infinity");
  });

  it("no digit it prints is a rounding zero: from 1,000 up the figure is the value rounded to the unit", () => {
    fc.assert(
      fc.property(fc.double({ min: 1000, max: 1e15, noNaN: true }), (v) => {
        expect(parse(fmtNumber(v))).toBe(Math.round(v));
      }),
    );
  });
});

describe("textTable", () => {
  it("keeps every cell on one line, so that text from an input cannot break the table or reach the terminal", () => {
    const t = textTable([
      ["name", "n"],
      ["a\nb\u001b[2J", "1"],
    ]);
    expect(t).toBe("name           n\na\\nb\\u001b[2J  1\n");
  });
});
