/**
 * Grammar checks of the text exports, independent of the writers: GOAL schedules, SimGrid time-independent traces,
 * XML (SimGrid platforms, MSCCL-IR, SVG) well-formedness, and values no target reads back (a JavaScript object's
 * text, NaN, Infinity, integers past 2^53 - 1). Each returns the first problem, or null.
 */

const SAFE = Number.MAX_SAFE_INTEGER;
const GOAL_OP = /^l(\d+): (?:(send|recv) (\d+)b (to|from) (\d+) tag (\d+)|calc (\d+))(?: cpu \d+)?$/;
const GOAL_REQ = /^l(\d+) (?:i?requires) l(\d+)$/;

/** Values written by mistake: an object's text, undefined, NaN, Infinity. */
function junk(text: string): string | null {
  const m = /\[object [A-Za-z]+\]|\bundefined\b|\bNaN\b|Infinity/.exec(text);
  return m === null ? null : `holds ${JSON.stringify(m[0])}`;
}

function safeInt(tok: string, what: string): string | null {
  return /^\d+$/.test(tok) && Number(tok) <= SAFE ? null : `${what} ${JSON.stringify(tok)} is not an exact integer`;
}

/** A GOAL schedule: one comment-or-statement per line, num_ranks N, then rank blocks 0..N-1 of labelled operations. */
export function checkGoal(text: string): string | null {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let ranks = -1,
    open = -1,
    seen = 0;
  for (const [k, line] of lines.entries()) {
    const at = `line ${k + 1}`;
    if (line.startsWith("//")) {
      if (/[\r\u0085\u2028\u2029]/.test(line)) return `${at}: a comment holds a line break`;
      continue;
    }
    if (ranks < 0) {
      const m = /^num_ranks (\d+)$/.exec(line);
      if (m === null) return `${at}: expected num_ranks, got ${JSON.stringify(line.slice(0, 80))}`;
      ranks = Number(m[1]);
      continue;
    }
    const r = /^rank (\d+) \{$/.exec(line);
    if (r !== null) {
      if (open >= 0) return `${at}: rank block inside rank ${open}`;
      if (Number(r[1]) !== seen) return `${at}: rank ${r[1]} where rank ${seen} was due`;
      open = seen++;
      continue;
    }
    if (line === "}") {
      if (open < 0) return `${at}: '}' outside a rank block`;
      open = -1;
      continue;
    }
    if (open < 0) return `${at}: ${JSON.stringify(line.slice(0, 80))} outside a rank block`;
    const op = GOAL_OP.exec(line);
    if (op !== null) {
      const bad =
        (op[3] !== undefined && safeInt(op[3], "size")) ||
        (op[5] !== undefined && Number(op[5]) >= ranks ? `${at}: peer ${op[5]} of ${ranks} ranks` : null) ||
        (op[7] !== undefined && safeInt(op[7], "calc"));
      if (bad) return `${at}: ${bad}`;
      continue;
    }
    if (GOAL_REQ.exec(line) === null) return `${at}: not a GOAL statement: ${JSON.stringify(line.slice(0, 80))}`;
  }
  if (ranks < 0) return "no num_ranks";
  if (open >= 0) return `rank ${open} is not closed`;
  if (seen !== ranks) return `${seen} rank blocks for num_ranks ${ranks}`;
  return junk(text);
}

const TRACE_LINE =
  /^(\d+) (?:init|finalize|waitall|barrier|(?:i?send|i?recv) (\d+) (\d+) (\d+)|compute (\d+(?:\.\d+)?(?:e[+-]?\d+)?))$/;

/** A SimGrid time-independent trace of rank `rank`: init first, finalize last, operations with exact sizes. */
export function checkTrace(text: string, rank: number | null): string | null {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const [k, line] of lines.entries()) {
    const m = TRACE_LINE.exec(line);
    if (m === null) return `line ${k + 1}: not a trace action: ${JSON.stringify(line.slice(0, 80))}`;
    if (rank !== null && Number(m[1]) !== rank) return `line ${k + 1}: rank ${m[1]} in rank ${rank}'s trace`;
    if (m[4] !== undefined && safeInt(m[4], "size")) return `line ${k + 1}: ${safeInt(m[4], "size")}`;
  }
  if (lines.length > 0 && !/ init$/.test(lines[0]!)) return "the trace does not begin with init";
  return junk(text);
}

const NAME = "[A-Za-z_:][-A-Za-z0-9_:.]*";
const ATTR = new RegExp(`\\s+(${NAME})\\s*=\\s*("[^"<]*"|'[^'<]*')`, "y");
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;

/** XML well-formedness: balanced elements, quoted attributes without '<', entities only as such, one root. */
export function checkXml(text: string): string | null {
  const stack: string[] = [];
  let roots = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf("<", i);
    const chunk = text.slice(i, lt < 0 ? n : lt);
    const amp = chunk.search(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
    if (amp >= 0) return `a bare '&' at character ${i + amp}`;
    if (stack.length === 0 && chunk.trim() !== "")
      return `text outside the root: ${JSON.stringify(chunk.slice(0, 40))}`;
    if (lt < 0) break;
    i = lt;
    if (text.startsWith("<!--", i)) {
      const e = text.indexOf("-->", i + 4);
      if (e < 0) return "an unclosed comment";
      if (text.slice(i + 4, e).includes("--")) return "'--' inside a comment";
      i = e + 3;
      continue;
    }
    if (text.startsWith("<?", i)) {
      const e = text.indexOf("?>", i);
      if (e < 0) return "an unclosed declaration";
      i = e + 2;
      continue;
    }
    if (text.startsWith("<!DOCTYPE", i) || text.startsWith("<![CDATA[", i)) {
      const e = text.indexOf(text.startsWith("<![CDATA[", i) ? "]]>" : ">", i);
      if (e < 0) return "an unclosed DOCTYPE or CDATA";
      i = e + 1;
      continue;
    }
    const close = new RegExp(`</(${NAME})\\s*>`, "y");
    close.lastIndex = i;
    const c = close.exec(text);
    if (c !== null) {
      if (stack.pop() !== c[1]) return `</${c[1]}> closes nothing open`;
      i = close.lastIndex;
      continue;
    }
    const open = new RegExp(`<(${NAME})`, "y");
    open.lastIndex = i;
    const o = open.exec(text);
    if (o === null) return `a '<' that starts no tag at character ${i}`;
    i = open.lastIndex;
    const names = new Set<string>();
    for (;;) {
      ATTR.lastIndex = i;
      const a = ATTR.exec(text);
      if (a === null) break;
      if (names.has(a[1]!)) return `attribute ${a[1]} twice in <${o[1]}>`;
      names.add(a[1]!);
      const v = a[2]!.slice(1, -1);
      for (let j = v.indexOf("&"); j >= 0; j = v.indexOf("&", j + 1)) {
        ENTITY.lastIndex = j;
        if (ENTITY.exec(v) === null) return `a bare '&' in attribute ${a[1]} of <${o[1]}>`;
      }
      i = ATTR.lastIndex;
    }
    const end = /\s*(\/?)>/y;
    end.lastIndex = i;
    const e = end.exec(text);
    if (e === null) return `<${o[1]}> is not closed by '>' (at ${JSON.stringify(text.slice(i, i + 30))})`;
    i = end.lastIndex;
    if (stack.length === 0) roots++;
    if (roots > 1) return "more than one root element";
    if (e[1] !== "/") stack.push(o[1]!);
  }
  if (stack.length > 0) return `<${stack[stack.length - 1]}> is never closed`;
  if (roots !== 1) return "no root element";
  return junk(text);
}

/** SimGrid values in a platform: every bandwidth, latency and speed a finite number with its unit. */
export function checkPlatform(text: string): string | null {
  const xml = checkXml(text);
  if (xml !== null) return xml;
  for (const m of text.matchAll(/\b(bw|bb_bw|bandwidth|lat|bb_lat|latency|speed)="([^"]*)"/g)) {
    const v = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)([A-Za-z]*)$/.exec(m[2]!);
    if (v === null || !Number.isFinite(Number(v[1])) || Number(v[1]) < 0)
      return `${m[1]}="${m[2]}" is not a finite SimGrid value`;
  }
  return null;
}
