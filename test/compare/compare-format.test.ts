/**
 * fmtNumber: every figure the tables print is true to its last digit; textTable: every cell on one line, and a fitted
 * table within the width (display columns) from MIN_FIT_WIDTH up.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayWidth, fmtNumber, MIN_FIT_WIDTH, textTable } from "../../src/compare/compare-format.js";

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

  it("counts display columns: a CJK character takes two, a combining mark none", () => {
    expect([displayWidth("abc"), displayWidth("日本"), displayWidth("e\u0301"), displayWidth("😀")]).toEqual([
      3, 4, 1, 2,
    ]);
    expect(
      textTable([
        ["名前", "n"],
        ["ab", "1"],
      ]),
    ).toBe("名前  n\nab    1\n");
  });

  it("counts emoji two columns: transport (🚀), symbols shown as emoji (⚡ ✅ ⭐), pictographs from U+1FA70 (🪐 🫠)", () => {
    const two = ["🚀", "🛸", "⚡", "✅", "❌", "⭐", "⌛", "♈", "🟢", "🪐", "🫠", "🤖", "😀", "🌍"];
    expect(two.map(displayWidth)).toEqual(two.map(() => 2));
    // one column: symbols shown as text by default; U+FE0F counts nothing itself but shows such a symbol as an emoji
    expect(["☀", "✔", "❤", "→", "©"].map(displayWidth)).toEqual([1, 1, 1, 1, 1]);
    expect(["❤\ufe0f", "☀\ufe0f", "🚀\ufe0f", "a\ufe0e", "1\u20e3"].map(displayWidth)).toEqual([2, 2, 2, 1, 1]);
    // a row of rockets is 27 columns, too wide for 20: fitted, every line holds at most 20
    const rows = [
      ["name", "note"],
      ["launch", "🚀 🚀 🚀 🚀 🚀 🚀 🚀 🚀 🚀"],
    ];
    expect(displayWidth(rows[1]!.join("  "))).toBe(34);
    for (const l of textTable(rows, 20).split("\n")) expect(displayWidth(l), l).toBeLessThanOrEqual(20);
  });

  it("keys = 2 at 30 columns (verify's check and detail): every line within 30", () => {
    const rows = [
      ["check", "detail", "status", "witness"],
      ["conservation", "every element arrives once", "ok", "-"],
      ["port-limit", "at most one send per port", "FAIL", "node 3 sends twice in step 2"],
    ];
    const lines = textTable(rows, 30, 2).trimEnd().split("\n");
    expect(lines.filter((l) => displayWidth(l) > 30)).toEqual([]);
    // a name too wide goes on indented, as the cells under it: only a row's first line starts at column 0
    expect(lines).toEqual([
      "check  detail",
      "  status",
      "  witness",
      "conservation  every element",
      "  arrives once",
      "  ok",
      "  -",
      "port-limit  at most one send",
      "  per port",
      "  FAIL",
      "  node 3 sends twice in step 2",
    ]);
  });

  it("at 20 columns a name wrapped between its cells goes on indented, no blank at a line's end (verify)", () => {
    const rows = [
      ["ok", "steps-lower-bound", "7", "bound 7"],
      ["ok", "peak-buffer", "7", "bound 14"],
    ];
    expect(textTable(rows, 20, 2)).toBe("ok\n  steps-lower-bound\n  7  bound 7\nok  peak-buffer\n  7  bound 14\n");
  });

  it("from MIN_FIT_WIDTH up, only a row's first line starts at column 0, in order; none ends with a blank", () => {
    const word = fc.stringMatching(/^[a-z日本語é-]{1,18}$/);
    const cell = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
    const table = fc
      .integer({ min: 2, max: 6 })
      .chain((n) => fc.array(fc.array(cell, { minLength: n, maxLength: n }), { minLength: 2, maxLength: 5 }));
    fc.assert(
      fc.property(table, fc.integer({ min: MIN_FIT_WIDTH, max: 60 }), fc.integer({ min: 1, max: 3 }), (rows, w, k) => {
        const lines = textTable(rows, w, k).trimEnd().split("\n");
        expect(lines.filter((l) => l !== l.trimEnd())).toEqual([]);
        // a row's first line (once per block of columns) starts with its name; every other line is indented or blank
        const starts = lines.filter((l) => l !== "" && !l.startsWith(" "));
        expect(starts.length % rows.length).toBe(0);
        starts.forEach((l, i) => expect(l.startsWith(rows[i % rows.length]![0]!.split(" ")[0]!), l).toBe(true));
      }),
      { seed: 5, numRuns: 400 },
    );
  });

  it("from MIN_FIT_WIDTH up, every line fits but a word wider than the room left, kept whole", () => {
    const word = fc.stringMatching(/^[a-z日本語é]{1,14}$/);
    const cell = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
    const table = fc
      .integer({ min: 2, max: 6 })
      .chain((n) => fc.array(fc.array(cell, { minLength: n, maxLength: n }), { minLength: 2, maxLength: 5 }));
    fc.assert(
      fc.property(
        table,
        fc.integer({ min: MIN_FIT_WIDTH, max: 60 }),
        fc.integer({ min: 1, max: 3 }),
        (rows, w, keys) => {
          // a line past the width holds a word wider than the room left beside a row's name (at least half the width)
          for (const line of textTable(rows, w, keys).split("\n"))
            if (displayWidth(line) > w)
              expect(
                line.split(" ").some((x) => displayWidth(x) > (w - 2) / 2),
                line,
              ).toBe(true);
        },
      ),
      { seed: 3, numRuns: 300 },
    );
  });
});
