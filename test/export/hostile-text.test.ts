/** Text exports escape or refuse what their grammar cannot hold: names from input never leave their field, numbers are written only when exact. */
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../src/model/matrix.js";
import type { Schedule } from "../../src/model/schedule.js";
import type { TopologyDescription } from "../../src/model/topology.js";
import { plan } from "../../src/planner/registry.js";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { goalCommentText, goalText } from "../../src/export/goal.js";
import { simgridRankTrace } from "../../src/export/simgrid-trace.js";
import { simgridPlatformXml } from "../../src/export/simgrid-platform.js";
import { simgridTopologyHostfile, simgridTopologyPlatformPieces } from "../../src/export/simgrid-topology-platform.js";
import { escapeXml, xmlCommentText } from "../../src/export/xml-escape.js";
import { mscclXml } from "../../src/export/msccl-xml.js";
import { stepGrid, stepGridSvg } from "../../src/export/step-grid.js";
import { findMachine } from "../../src/machines/presets.js";
import { graphFromDescription } from "../../src/topology/description.js";
import { compileRoutes } from "../../src/topology/compile-routes.js";

const M = matrixFromRows([
  [0, 2, 1],
  [3, 0, 1],
  [1, 1, 0],
]);

/** A shift schedule of m whose algorithm and stage names are `name`. */
function scheduleNamed(name: string, m = M): Schedule {
  const doc = JSON.parse(scheduleToJsonText(plan(m, "shift", {}))) as { algorithm: string; stages: { name: string }[] };
  doc.algorithm = name;
  for (const st of doc.stages) st.name = name;
  return parseScheduleJsonText(JSON.stringify(doc));
}

/** The program of scheduleNamed(name, m). */
function programNamed(name: string, m = M): ReturnType<typeof lowerSchedule>["program"] {
  return lowerSchedule(m, scheduleNamed(name, m)).program;
}

/** What fn throws, as its message. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return "(accepted)";
}

/** True when an XML 1.0 document could hold s as text (no character it cannot hold at all). */
/* eslint-disable no-control-regex -- control characters are what this pattern finds */
const xmlHolds = (s: string): boolean => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s);
/* eslint-enable no-control-regex */

describe("GOAL", () => {
  it("keeps an algorithm name with line breaks inside its comment line (no injected rank block)", () => {
    const text = goalText(programNamed("x\n}\nrank 0 {\nl1: send 1b to 1 tag 0\r\u2028"));
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "// commplan x\\n}\\nrank 0 {\\nl1: send 1b to 1 tag 0\\r\\u2028, P = 3, nonblocking, 2 rounds; sizes in bytes (8 per element), calc in picoseconds",
    );
    expect(lines.filter((l) => l.startsWith("rank ")).length).toBe(3);
    expect(lines[1]).toBe("num_ranks 3");
  });

  it("refuses a calc time past 2^53 - 1 picoseconds instead of writing it in exponent form", () => {
    const big = matrixFromRows([
      [2 ** 40, 1],
      [1, 0],
    ]);
    const s = plan(big, "shift", {});
    const prog = lowerSchedule(big, s).program;
    expect(refusal(() => goalText(prog, { calcPerByte: 1e9 }))).toMatch(
      /^export: the calc of the copy of rank \d+ \(round \d+\): \d+ elements at 8 bytes each take more than 2\^53 - 1 picoseconds/,
    );
  });

  it("writes an ordinary name as it is", () => {
    expect(goalCommentText("two-stage (a/b)")).toBe("two-stage (a/b)");
    expect(goalText(programNamed("shift")).split("\n")[0]).toMatch(/^\/\/ commplan shift, P = 3/);
  });

  it("refuses a message of more than 2^53 - 1 bytes instead of writing it rounded", () => {
    const big = matrixFromRows([
      [0, Number.MAX_SAFE_INTEGER],
      [1, 0],
    ]);
    const prog = programNamed("shift", big);
    expect(refusal(() => goalText(prog))).toBe(
      "export: the send of rank 0 (peer 1, round 0): 9007199254740991 elements of 8 bytes are more than 2^53 - 1 = 9007199254740991 bytes, which the format cannot write exactly",
    );
    expect(refusal(() => [...simgridRankTrace(prog, 0)].join(""))).toMatch(
      /^export: the send of rank 0 .* more than 2\^53 - 1/,
    );
    expect(refusal(() => [...simgridRankTrace(prog, 1)].join(""))).toMatch(
      /^export: the recv of rank 1 .* more than 2\^53 - 1/,
    );
  });
});

describe("XML and HTML text", () => {
  it("escapes markup and writes characters XML cannot hold as \\uXXXX", () => {
    expect(escapeXml(`a<b>&"c'`)).toBe("a&lt;b&gt;&amp;&quot;c'");
    expect(escapeXml("a\u0001b\ud800c\uffff\n\t")).toBe("a\\u0001b\\ud800c\\uffff\n\t");
    expect(escapeXml("\ud83d\ude00")).toBe("\ud83d\ude00"); // a surrogate pair is one character
  });

  it("keeps a comment a comment: no --, no markup, no character XML cannot hold", () => {
    for (const s of ["---", "----", "a--b", "-->", "<!--x-->", "x\u0000y"]) {
      const t = xmlCommentText(s);
      expect(t).not.toMatch(/--|[<>&]/);
      expect(xmlHolds(t)).toBe(true);
    }
    expect(xmlCommentText("a--b")).toBe("a- -b");
  });

  it("the step grid SVG and MSCCL XML of a hostile name are well formed", () => {
    const name = "</text><script>\u0001</script>--";
    const named = scheduleNamed(name);
    const svg = stepGridSvg(stepGrid(named, 0));
    expect(svg).not.toContain("<script>");
    expect(xmlHolds(svg)).toBe(true);
    const xml = mscclXml(lowerSchedule(M, named).program);
    expect(xml).toMatch(/<algo name="commplan-__text__script____script_--"/);
  });
});

describe("SimGrid platforms", () => {
  const net = (hosts: string[], bandwidth: number, latency = 1): TopologyDescription => ({
    name: "n---x<y>",
    hosts,
    switches: ["s"],
    links: hosts.map((h) => ({ a: h, b: "s", bandwidth, latency })),
  });
  const platform = (d: TopologyDescription): string =>
    [...simgridTopologyPlatformPieces(d, compileRoutes(graphFromDescription(d)))].join("");

  it("refuses a bandwidth SimGrid cannot read back (no InfinityBps)", () => {
    expect(refusal(() => platform(net(["a", "b"], 1e308)))).toBe(
      "export: links[0].bandwidth (bytes per second) is Infinity Bps: SimGrid needs a finite number > 0",
    );
    const machine = { ...findMachine("cm5-004"), tc: 0, td: 0 };
    expect(refusal(() => simgridPlatformXml(2, machine))).toMatch(
      /^export: the bandwidth 1 \/ \(t_c \+ t_d\) is Infinity Bps/,
    );
  });

  it("writes a hostile topology name and host names escaped", () => {
    const xml = platform(net(['a"<&', "b\u0002"], 100));
    expect(xml).toContain("<!-- commplan: topology n- - -x y ;");
    expect(xml).toContain('<host id="a&quot;&lt;&amp;"');
    expect(xml).toContain('<host id="b\\u0002"');
    expect(xmlHolds(xml)).toBe(true);
  });

  it("refuses a host name a hostfile line cannot hold", () => {
    expect(simgridTopologyHostfile(net(["a", "b"], 1), 2)).toBe("a\nb\n");
    for (const [h, shown] of [
      ["x\ny", '"x\\ny"'],
      ["x y", "'x y'"],
      ["x:4", "'x:4'"],
    ] as const)
      expect(refusal(() => simgridTopologyHostfile(net(["a", h], 1), 2))).toBe(
        `export: /hosts/1 ${shown} cannot be a hostfile line (no white space, control characters or ':')`,
      );
    expect(refusal(() => simgridTopologyHostfile(net(["a b"], 1), 1, { module: "platform", file: "n.json" }))).toBe(
      "platform: n.json: /hosts/0 'a b' cannot be a hostfile line (no white space, control characters or ':')",
    );
  });
});
