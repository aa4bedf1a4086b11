/** An SVG's text elements, and which leave the canvas (a text's width estimated at 0.6 em a character). */

/** One <text> element of an SVG: where it is anchored, its size, rotation and content. */
export interface SvgText {
  readonly x: number;
  readonly y: number;
  readonly anchor: "start" | "middle" | "end";
  readonly size: number;
  /** Degrees of its rotate() transform about (x, y), 0 when none. */
  readonly rotate: number;
  readonly text: string;
}

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The canvas size: the root's viewBox width and height, else its width and height attributes. */
export function viewBox(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const box = attr(root, "viewBox")?.split(/\s+/).map(Number);
  if (box && box.length === 4) return { width: box[2]!, height: box[3]! };
  const width = Number(attr(root, "width")),
    height = Number(attr(root, "height"));
  if (!(width > 0 && height > 0)) throw new Error("the SVG has neither a viewBox nor a width and a height");
  return { width, height };
}

/** Every <text> element, with the root's font size where it has none. */
export function svgTexts(svg: string): SvgText[] {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const baseSize = Number(attr(root, "font-size") ?? 16);
  return [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const tag = " " + m[1]!;
    const anchor = (attr(tag, "text-anchor") ?? "start") as SvgText["anchor"];
    const rotate = /rotate\((-?[\d.]+)/.exec(attr(tag, "transform") ?? "")?.[1];
    const text = m[2]!
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&");
    return {
      x: Number(attr(tag, "x")),
      y: Number(attr(tag, "y")),
      anchor,
      size: Number(attr(tag, "font-size") ?? baseSize),
      rotate: rotate === undefined ? 0 : Number(rotate),
      text,
    };
  });
}

/** The texts whose estimated extent leaves the canvas (none rotated but by 0 or -90 degrees is expected). */
export function textsOutside(svg: string): SvgText[] {
  const { width, height } = viewBox(svg);
  return svgTexts(svg).filter((t) => {
    const w = 0.6 * t.size * t.text.length;
    const from = t.anchor === "start" ? 0 : t.anchor === "middle" ? -w / 2 : -w;
    if (t.rotate === -90) {
      // drawn upwards from (x, y): the text runs from y - from to y - from - w
      const y0 = t.y - from - w,
        y1 = t.y - from;
      return y0 < 0 || y1 > height || t.x - t.size < 0 || t.x > width;
    }
    if (t.rotate !== 0) return true;
    return t.x + from < 0 || t.x + from + w > width || t.y - t.size < 0 || t.y > height;
  });
}
