import { describe, expect, it } from "vitest";
import { linkLoadSvg } from "../../src/export/svg-link-load.js";
import { isCommplanError } from "../../src/model/errors.js";

describe("linkLoadSvg", () => {
  it("draws the busiest links as bars, busiest first, escaping labels", () => {
    const links = Array.from({ length: 40 }, (_, i) => ({ label: `l${i}<x>`, load: i / 40 }));
    const svg = linkLoadSvg(links, { top: 32 });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("the 32 busiest of 40 links");
    expect(svg.indexOf("l39&lt;x&gt;")).toBeLessThan(svg.indexOf("l38&lt;x&gt;"));
    expect(svg).not.toContain("l7&lt;x&gt;"); // not among the 32 busiest
    expect(svg).not.toContain("<x>");
  });

  it("draws a heat map when every link has a row and a column, without the links that carried nothing", () => {
    const links = [
      { label: "a", load: 0, row: 0, col: 0 },
      { label: "b", load: 1, row: 1, col: 2, group: "ring" },
      { label: "c", load: 0.5, row: 1, col: 1 },
    ];
    const svg = linkLoadSvg(links);
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(2);
    expect(svg).not.toContain(">a: busy");
    expect(svg).toContain("b (ring): busy 100.0 %");
    expect(svg).toContain('fill="rgb(175,0,0)"');
  });

  it("refuses a negative or NaN load with one error", () => {
    try {
      linkLoadSvg([{ label: "a", load: Number.NaN }]);
      expect.unreachable();
    } catch (e) {
      expect(isCommplanError(e)).toBe(true);
      expect((e as Error).message).toMatch(/link 0 \(a\) has load NaN/);
    }
  });
});
