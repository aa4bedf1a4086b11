/** commplan topologies and platform: the generator listing (text, --json) and SimGrid platforms of generated and user networks. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simgridTopologyPlatformPieces } from "../../src/export/simgrid-topology-platform.js";
import { buildTopology, compileRoutes, describeTopology, TOPOLOGY_GENERATORS } from "../../src/topology/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("topologies");
const f = (n: string) => join(dir, n);

describe("commplan topologies", () => {
  it("lists every generator with its parameters", async () => {
    const r = await run("topologies");
    expect(r.code).toBe(0);
    for (const g of TOPOLOGY_GENERATORS) {
      expect(r.out).toContain(`${g.name}: ${g.title}\n`);
      for (const p of g.params) expect(r.out).toContain(`    ${p.name}=<${p.type}>`);
    }
    expect(r.out).toContain("    oversub=<string> default 1: oversubscription ratio");
  });
  it("--json gives names, titles and parameter declarations", async () => {
    const r = await run("topologies", "--json");
    const list = JSON.parse(r.out) as { name: string; params: { name: string; type: string; default: unknown }[] }[];
    expect(list.map((g) => g.name)).toEqual(TOPOLOGY_GENERATORS.map((g) => g.name));
    expect(list.find((g) => g.name === "torus")!.params.find((p) => p.name === "hpr")).toMatchObject({
      type: "integer",
      default: 1,
    });
  });
});

describe("commplan platform: --topology or --network", () => {
  it("platform takes the network as --topology or as --network (as plan, simulate and verify name it), one of them", async () => {
    const a = await run("platform", "--topology", "fat-tree:k=4", "-P", "16");
    const b = await run("platform", "--network", "fat-tree:k=4", "-P", "16");
    expect(a.code).toBe(0);
    expect(b).toEqual(a);
    expect((await run("platform", "-P", "4")).err).toMatch(/required option '--topology <spec>' not specified/);
    const both = await run("platform", "--network", "flat", "--topology", "flat", "-P", "4");
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/'--network <spec>' cannot be used with option '--topology <spec>'/);
  });

  it("takes the ranks as -P, --p or --ranks (as gen and demo name them), one of them", async () => {
    const a = await run("platform", "--topology", "fat-tree:k=4", "-P", "16");
    expect(await run("platform", "--topology", "fat-tree:k=4", "--ranks", "16")).toEqual(a);
    expect(await run("platform", "--topology", "fat-tree:k=4", "--p", "16")).toEqual(a);
    const both = await run("platform", "--topology", "flat", "--p", "4", "--ranks", "4");
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/'--ranks <n>' cannot be used with option '-P, --p <n>'/);
  });

  it("counts the ranks and hosts of its summary line (1 rank on 1 host)", async () => {
    const r = await run("platform", "--topology", "flat", "--ranks", "1", "-o", f("one.xml"));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(`platform: flat: 1 rank on 1 host, a SimGrid FLAT cluster -> ${f("one.xml")}\n`);
  });
});

describe("commplan platform", () => {
  it("writes a FAT_TREE cluster, or explicit links and routes, and the hostfile", async () => {
    let r = await run(
      "platform",
      "--topology",
      "fat-tree:k=4",
      "-P",
      "12",
      "--machine",
      "ib-hdr-200",
      "-o",
      f("ft.xml"),
      "--hostfile",
      f("hosts"),
    );
    expect(r.code, r.err).toBe(0);
    const ft = readFileSync(f("ft.xml"), "utf8");
    expect(ft).toContain('topology="FAT_TREE" topo_parameters="3;2,2,4;1,2,2;1,1,1"');
    expect(ft).toContain('radical="0-15"');
    expect(ft).toContain('bw="25000000000Bps"');
    expect(readFileSync(f("hosts"), "utf8").trim().split("\n")).toHaveLength(12);
    // the cluster routes D-mod-k: a note when this network's routes differ, none when they match
    expect(r.err).toMatch(/^platform: note: SimGrid routes a FAT_TREE cluster D-mod-k, this network's routes are ECMP/);
    r = await run(
      "platform",
      "--topology",
      "fat-tree:k=4,routing=dmodk",
      "-P",
      "12",
      "--machine",
      "ib-hdr-200",
      "-o",
      f("ft2.xml"),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      `platform: fat-tree:k=4,routing=dmodk: 12 ranks on 16 hosts, a SimGrid FAT_TREE cluster -> ${f("ft2.xml")}\n`,
    );
    expect(readFileSync(f("ft2.xml"), "utf8")).toBe(
      ft.replace("topology fat-tree:k=4;", "topology fat-tree:k=4,routing=dmodk;"),
    );
    r = await run("platform", "--topology", "dragonfly", "-P", "16", "-o", f("df.xml"));
    expect(r.code, r.err).toBe(0);
    const df = readFileSync(f("df.xml"), "utf8");
    expect(df).toContain('<zone id="net" routing="Full">');
    expect(df.match(/<route /g)).toHaveLength(16 * 15);
    expect(df.match(/<link id=/g)).toHaveLength(36);
    expect(df).toContain('<link_ctn id="l0" direction="UP"/>');
  });
  it("-P below the host count: only the ranks' hosts, commplan's routes between them and the links on those routes", async () => {
    // fat-tree:k=16 has 1024 hosts: every host would mean SimGrid's Floyd shortest paths (no ECMP)
    const r = await run("platform", "--topology", "fat-tree:k=16,oversub=2", "-P", "20", "-o", "-");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('<zone id="net" routing="Full">');
    expect(r.out).toContain("1024 hosts");
    expect(r.out.match(/<host id=/g)).toHaveLength(20);
    expect(r.out).toContain('<host id="h19" ');
    expect(r.out).not.toContain("<router ");
    expect(r.out.match(/<route /g)).toHaveLength(20 * 19);
    const declared = new Set([...r.out.matchAll(/<link id="(l\d+)"/g)].map((m) => m[1]));
    const onRoutes = new Set([...r.out.matchAll(/<link_ctn id="(l\d+)"/g)].map((m) => m[1]));
    expect([...declared].sort()).toEqual([...onRoutes].sort());
    // 20 host cables, their edge switches' uplinks (2 per edge switch at 2:1), and some above
    expect(declared.size).toBeGreaterThan(20);
    expect(declared.size).toBeLessThan(200);
    const all = await run("platform", "--topology", "fat-tree:k=16,oversub=2", "-P", "300", "-o", "-");
    expect(all.out).toContain('<zone id="net" routing="Floyd">');
    expect(all.out.match(/<host id=/g)).toHaveLength(1024);
    // SimGrid's DTD: every <link> before the first <route>
    expect(all.out.lastIndexOf("<link id=")).toBeLessThan(all.out.indexOf("<route "));
  });
  it("the library refuses a rank count the network cannot hold, by name", () => {
    const g = buildTopology("flat", 4);
    const [d, routes] = [describeTopology(g), compileRoutes(g)];
    for (const ranks of [0, 5, 2.5])
      expect(() => [...simgridTopologyPlatformPieces(d, routes, { ranks })]).toThrow(
        new RegExp(`^export: ranks must be an integer in 1\\.\\.4 \\(the hosts of flat\\), got ${ranks}$`),
      );
    expect([...simgridTopologyPlatformPieces(d, routes, { ranks: 2, explicit: true })].join("")).toContain(
      '<route src="h1" dst="h0" ',
    );
  });
  it("--explicit writes routes even where a cluster fits; - (the default) writes to standard output", async () => {
    const r = await run("platform", "--topology", "flat", "-P", "3", "--explicit", "-o", "-");
    expect(r.code).toBe(0);
    expect((await run("platform", "--topology", "flat", "-P", "3", "--explicit")).out).toBe(r.out); // -o - is the default
    expect(r.out).toContain(
      '<route src="h0" dst="h2" symmetrical="NO"><link_ctn id="l0" direction="UP"/><link_ctn id="l2" direction="DOWN"/></route>',
    );
  });
  it("reads a user JSON network", async () => {
    const net = {
      format: "commplan.topology/v1",
      hosts: ["a", "b"],
      switches: ["s"],
      links: [
        { a: "a", b: "s", bandwidth: 10, latency: 1 },
        { a: "b", b: "s", bandwidth: 10, latency: 1 },
      ],
    };
    writeFileSync(f("net.json"), JSON.stringify(net));
    const r = await run("platform", "--topology", f("net.json"), "-o", "-");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('<host id="a" speed="1Gf"/>');
    expect(r.out).toContain('<link id="l1" bandwidth="10000000Bps" latency="1us" sharing_policy="SPLITDUPLEX"/>');
  });
  it("refuses bad input with one line and exit 2", async () => {
    for (const [args, re] of [
      [["--topology", "mesh", "-P", "4"], /^platform: unknown topology 'mesh'/],
      [["--topology", "flat"], /^platform: a generated topology needs the host count: give -P/],
      [["--topology", "flat", "-P", "0"], /-P \(--p, --ranks\) must be an integer in 1\.\./],
      [["--topology", "torus:dims=2x2", "-P", "5"], /gives 4 hosts, fewer than P = 5/],
    ] as const) {
      const r = await run("platform", ...args, "-o", f("x.xml"));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(re);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("platform --hostfile -", () => {
  it("goes to stdout beside -o FILE, and is refused when the platform goes there too (two documents on one stream)", async () => {
    const both = await run("platform", "--network", "flat", "-p", "2", "--hostfile", "-");
    expect(both).toEqual({
      code: 2,
      out: "",
      err: "platform: --hostfile -: stdout already carries the platform XML (-o -); write the hostfile or the platform (-o) to a file\n",
    });
    const hosts = await run("platform", "--network", "flat", "-p", "2", "--hostfile", "-", "-o", f("two.xml"));
    expect([hosts.code, hosts.out]).toEqual([0, "h0\nh1\n"]);
    expect(readFileSync(f("two.xml"), "utf8")).toMatch(/^<\?xml/);
  });
  it("is refused with --json, whose summary goes to stdout too, before anything is written", async () => {
    const argv = [
      "platform",
      "--topology",
      "fat-tree:k=4",
      "-p",
      "2",
      "-o",
      f("json.xml"),
      "--hostfile",
      "-",
      "--json",
    ];
    expect(await run(...argv)).toEqual({
      code: 2,
      out: "",
      err: "platform: --hostfile -: stdout already carries the --json summary; write the hostfile to a file, or leave out --json\n",
    });
    expect(existsSync(f("json.xml"))).toBe(false);
  });
});

describe("the generators are --network's", () => {
  it("topologies --help says so, and simulate --topology NAME of every generator names --network", async () => {
    expect((await run("topologies", "--help")).out.replace(/\s+/g, " ")).toContain(
      "list the network generators of --network (plan, simulate, verify, compare, precompute) and of platform's --topology",
    );
    const schedule = f("net-shift.json");
    writeFileSync(
      f("net-m.json"),
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 2,
        rows: [
          [0, 1],
          [1, 0],
        ],
      }),
    );
    expect((await run("plan", f("net-m.json"), "-a", "shift", "-o", schedule)).code).toBe(0);
    for (const g of TOPOLOGY_GENERATORS) {
      if (g.name === "flat" || g.name === "cm5-fat-tree") continue; // node topologies too
      const r = await run("simulate", schedule, "--machine", "t3d-004", "--topology", `${g.name}:lat=1`);
      expect(r.code, g.name).toBe(2);
      expect(r.err).toBe(
        `simulate: option '--topology <name>': unknown value '${g.name}:lat=1'; known: flat, cm5-fat-tree, ocpc. ` +
          `A network is given with --network ${g.name}:lat=1. (add --help for usage)\n`,
      );
    }
    expect((await run("simulate", schedule, "--machine", "t3d-004", "--topology", "flt")).err).not.toContain(
      "--network",
    );
  });
});

describe("generator parameters out of range", () => {
  it("a link bandwidth or latency out of range is refused with one line naming it and its range", async () => {
    for (const [network, line] of [
      ["fat-tree:k=8,bw=1e-300", "platform: fat-tree: bw = '1e-300' is not a number in 1e-12..1e12 (bytes/us)"],
      ["fat-tree:k=8,lat=1e300", "platform: fat-tree: lat = '1e300' is not a number in 0..1e12 (us)"],
    ]) {
      const r = await run("platform", "--network", network!, "-P", "4", "-o", f("x.xml"));
      expect(r.code).toBe(2);
      expect(r.err).toBe(`${line!}\n`);
    }
  });
});

describe("commplan platform --hostfile", () => {
  it("a host name a hostfile line cannot hold is refused naming platform, the topology file and /hosts/r", async () => {
    const net = {
      format: "commplan.topology/v1",
      name: "t",
      hosts: ["a b", "c"],
      switches: ["s"],
      links: [
        { a: "a b", b: "s", bandwidth: 1, latency: 1 },
        { a: "c", b: "s", bandwidth: 1, latency: 1 },
      ],
    };
    writeFileSync(f("spaced.json"), JSON.stringify(net));
    const r = await run("platform", "--topology", f("spaced.json"), "-o", f("sp.xml"), "--hostfile", f("sp.hosts"));
    expect([r.code, r.err]).toEqual([
      2,
      `platform: ${f("spaced.json")}: /hosts/0 'a b' cannot be a hostfile line (no white space, control characters or ':')\n`,
    ]);
  });
});
