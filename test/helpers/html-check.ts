/** Test helper: a small well-formedness check of an HTML page (balanced tags, no scripts, no network addresses). */

/** Elements HTML writes without a closing tag. */
const VOID = new Set(["meta", "br", "img", "input", "link", "hr", "col", "area", "base", "wbr", "source"]);

/** Problems found in `html`: unbalanced or stray tags, any <script>, any http(s):// address, raw '<' in text. Empty when fine. */
export function htmlProblems(html: string): string[] {
  const problems: string[] = [];
  if (/<script\b/i.test(html)) problems.push("has a <script>");
  const url = /https?:\/\/[^\s"'<>]*/i.exec(html);
  if (url) problems.push(`names an address: ${url[0]}`);
  const body = html.replace(/^<!DOCTYPE html>\s*/i, "");
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*(\/?)>/g;
  let last = 0;
  for (let t = tag.exec(body); t !== null; t = tag.exec(body)) {
    const text = body.slice(last, t.index);
    if (text.includes("<") || text.includes(">"))
      problems.push(`raw < or > in text near offset ${last}: ${text.slice(0, 60)}`);
    last = tag.lastIndex;
    const [, close, name, , self] = t;
    const n = name!.toLowerCase();
    if (self === "/" || (close === "" && VOID.has(n))) continue;
    if (close === "") stack.push(n);
    else if (stack.pop() !== n) {
      problems.push(`</${n}> closes the wrong element at offset ${t.index}`);
      break;
    }
  }
  if (body.slice(last).trim() !== "") problems.push("text after the last tag");
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(", ")}`);
  return problems;
}
