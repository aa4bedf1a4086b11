/**
 * Topology JSON reader: a commplan.topology/v1 document (hosts, switches, links, optional routes) into a
 * TopologyDescription, checking syntax, schema and meaning with lines.
 */
import { statSync } from "node:fs";
import { readBounded } from "./bounded-read.js";
import { fail, isCommplanError } from "../model/errors.js";
import type { TopologyDescription } from "../model/topology.js";
import { quoted } from "../internal/quoted.js";
import { fsError } from "./file-output.js";
import { validateWithSchema } from "./json-schema.js";
import { JsonSyntaxError, JsonTokenizer, decodeJsonString } from "./json-tokenizer.js";
import { jsonDocumentText } from "./json-text.js";
import type { JsonTokenHandler } from "./json-tokenizer.js";
import { checkArg, checkPathArg } from "../model/option-checks.js";

const MODULE = "topology";
/** The largest topology document the reader parses (it is parsed whole). */
export const MAX_TOPOLOGY_BYTES = 64 * 1024 * 1024;

/** A handler that notes the line of the value at one JSON pointer (e.g. "/links/3/b"). */
class PointerLine implements JsonTokenHandler {
  line: number | undefined;
  private readonly path: (string | number)[] = [];
  private readonly kinds: ("o" | "a")[] = [];
  private pendingKey = "";
  constructor(
    private readonly target: string,
    private readonly tok: () => number,
  ) {}
  private value(): void {
    const top = this.kinds[this.kinds.length - 1];
    if (top === "a") this.path[this.path.length - 1] = (this.path[this.path.length - 1] as number) + 1;
    else if (top === "o") this.path[this.path.length - 1] = this.pendingKey;
    if (this.line === undefined && "/" + this.path.join("/") === this.target) this.line = this.tok();
    if (this.line === undefined && this.path.length === 0 && this.target === "/") this.line = this.tok();
  }
  private open(kind: "o" | "a"): void {
    this.value();
    this.kinds.push(kind);
    this.path.push(kind === "a" ? -1 : "");
  }
  private close(): void {
    this.kinds.pop();
    this.path.pop();
  }
  startObject(): void {
    this.open("o");
  }
  endObject(): void {
    this.close();
  }
  startArray(): void {
    this.open("a");
  }
  endArray(): void {
    this.close();
  }
  key(buf: Buffer, start: number, end: number, escaped: boolean): void {
    this.pendingKey = decodeJsonString(buf, start, end, escaped).replace(/~/g, "~0").replace(/\//g, "~1");
  }
  string(): void {
    this.value();
  }
  number(): void {
    this.value();
  }
  literal(): void {
    this.value();
  }
}

/** The 1-based line of the value at JSON pointer `pointer` in `text`, or undefined. */
export function jsonPointerLine(text: string, pointer: string): number | undefined {
  let tok: JsonTokenizer | null = null;
  const h = new PointerLine(pointer, () => tok!.line);
  tok = new JsonTokenizer(h);
  try {
    tok.write(Buffer.from(text, "utf8"));
    tok.end();
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
  }
  return h.line;
}

/**
 * Checks names (each declared once), link ends (declared, not a host with a host, not a loop) and route ends; throws
 * naming field and line.
 */
function checkMeaning(d: TopologyDescription, text: string, file: string | undefined): void {
  const bad = (field: string, msg: string): never => {
    const line = jsonPointerLine(text, field);
    throw fail(MODULE, "BAD_INPUT", `${field}: ${msg}`, {
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
      field,
    });
  };
  const kind = new Map<string, "host" | "switch">();
  for (const [list, k] of [
    [d.hosts, "host"],
    [d.switches, "switch"],
  ] as const)
    list.forEach((n, i) => {
      if (kind.has(n)) bad(`/${k === "host" ? "hosts" : "switches"}/${i}`, `${quoted(n)} is declared twice`);
      kind.set(n, k);
    });
  d.links.forEach((l, i) => {
    for (const end of ["a", "b"] as const)
      if (!kind.has(l[end])) bad(`/links/${i}/${end}`, `${quoted(l[end])} is not a declared host or switch`);
    if (l.a === l.b) bad(`/links/${i}/b`, `the link joins ${quoted(l.a)} to itself`);
    if (kind.get(l.a) === "host" && kind.get(l.b) === "host")
      bad(`/links/${i}`, `the link joins two hosts (${quoted(l.a)}, ${quoted(l.b)}): hosts connect only to switches`);
  });
  (d.routes ?? []).forEach((r, i) => {
    for (const end of ["src", "dst"] as const)
      if (kind.get(r[end]) !== "host") bad(`/routes/${i}/${end}`, `${quoted(r[end])} is not a declared host`);
    r.path.forEach((s, j) => {
      if (kind.get(s) !== "switch") bad(`/routes/${i}/path/${j}`, `${quoted(s)} is not a declared switch`);
    });
  });
}

/** Parses a topology document's text (`file` names it in messages and is the default name). */
export function parseTopologyJsonText(text: string, file?: string): TopologyDescription {
  checkArg(MODULE, "parseTopologyJsonText", "text", text, typeof text === "string", "a string", "BAD_OPTION");
  checkArg(
    MODULE,
    "parseTopologyJsonText",
    "file",
    file,
    file === undefined || typeof file === "string",
    "a file name or undefined",
    "BAD_OPTION",
  );
  return parseTopology(jsonDocumentText(Buffer.from(text, "utf8"), MODULE, file), file);
}

/** A topology document's text, its encoding, syntax and keys checked (jsonDocumentText), into a description. */
function parseTopology(text: string, file: string | undefined): TopologyDescription {
  const place = (line?: number, field?: string) => ({
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line }),
    ...(field === undefined ? {} : { field }),
  });
  const value = JSON.parse(text) as unknown;
  try {
    validateWithSchema("topology", value, MODULE, file);
  } catch (e) {
    if (!isCommplanError(e) || e.place.field === undefined) throw e;
    const line = jsonPointerLine(text, e.place.field);
    const prefix = `${MODULE}: ${file === undefined ? "" : `${file}: `}`;
    const body = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
    throw fail(MODULE, e.code, body, place(line, e.place.field));
  }
  const doc = value as Omit<TopologyDescription, "name"> & { name?: string };
  const d: TopologyDescription = { ...doc, name: doc.name ?? file ?? "topology" };
  checkMeaning(d, text, file);
  return d;
}

/** Reads a topology JSON file (refused past MAX_TOPOLOGY_BYTES). */
export function readTopologyJson(file: string): TopologyDescription {
  checkPathArg(MODULE, "readTopologyJson", "file", file, "a path");
  let bytes: Buffer;
  try {
    const size = statSync(file).size;
    if (size > MAX_TOPOLOGY_BYTES)
      throw fail(MODULE, "BAD_INPUT", `${size} bytes is past the reader's limit of ${MAX_TOPOLOGY_BYTES}`, { file });
    bytes = readBounded(file, MAX_TOPOLOGY_BYTES, () => {
      throw fail(MODULE, "BAD_INPUT", `more than the reader's limit of ${MAX_TOPOLOGY_BYTES} bytes`, { file });
    });
  } catch (e) {
    if (isCommplanError(e)) throw e;
    throw fsError(e, MODULE, file, false);
  }
  return parseTopology(jsonDocumentText(bytes, MODULE, file), file);
}
