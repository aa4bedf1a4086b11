/** commplan topologies | platform: list the network generators, and write a SimGrid platform of a network. */
import { Option, type Command } from "commander";
import { simgridTopologyHostfile, simgridTopologyPlatformPieces } from "../../export/simgrid-topology-platform.js";
import { checkOutputTargets, refuseOutputOntoInput, writeOutputs } from "../../io/file-output.js";
import { readTopologyJson } from "../../io/topology-json-read.js";
import { findMachine } from "../../machines/presets.js";
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import type { NetworkRoutes } from "../../model/network.js";
import {
  TOPOLOGY_GENERATORS,
  buildTopology,
  compileRoutes,
  describeTopology,
  graphFromDescription,
  MAX_TOPOLOGY_HOSTS,
  parseTopologySpec,
  type TopologyGenerator,
  type TopologyGraph,
} from "../../topology/index.js";
import type { CliContext } from "../context.js";
import {
  JSON_SUMMARY_HELP,
  namesStdout,
  printJson,
  refuseJsonOnStdout,
  refuseStdoutTarget,
  writtenBytes,
} from "./json-summary.js";
import { intOption } from "../io.js";
import { counted } from "../../internal/plural.js";
import { oneLine, quoted } from "../../internal/quoted.js";

/** What `--topology SPEC` names: a generator spec (`fat-tree:k=8`) or a topology JSON file (ends in .json). */
export const TOPOLOGY_OPTION_HELP =
  "the network: a generator spec name:key=value,... (e.g. fat-tree:k=8,oversub=4; 'commplan topologies' lists them) or a topology JSON file (*.json, docs/topologies.md)";

/**
 * The graph and compiled routes of `--topology SPEC` for `p` ranks (a file's host count when p is
 * undefined) within `maxMemory`; link defaults from `machine`.
 */
export function loadTopology(
  spec: string,
  p: number | undefined,
  maxMemory: number,
  machine?: MachineModel,
): { graph: TopologyGraph; routes: NetworkRoutes } {
  const graph = topologyGraph(spec, p, maxMemory, machine);
  return { graph, routes: compileRoutes(graph, { maxMemory }) };
}

/**
 * The graph of `--topology SPEC` for `p` ranks, as loadTopology builds it, without its routes: a spec or file that
 * cannot serve p ranks (too few hosts) is refused as loadTopology refuses it.
 */
export function topologyGraph(
  spec: string,
  p: number | undefined,
  maxMemory: number,
  machine?: MachineModel,
): TopologyGraph {
  let graph: TopologyGraph;
  if (spec.endsWith(".json")) {
    graph = graphFromDescription(readTopologyJson(spec), spec, { maxMemory });
    if (p !== undefined && p > graph.graph().hosts)
      throw fail("topology", "BAD_OPTION", `${spec} has ${graph.graph().hosts} hosts, fewer than P = ${p}`, {
        file: spec,
        field: "hosts",
      });
  } else {
    // the spec is judged first: a mistyped name gets its suggestion, not a request for -P
    parseTopologySpec(spec);
    if (p === undefined)
      throw fail("topology", "BAD_OPTION", `a generated topology needs the host count: give -P (or --ranks)`, {
        field: "P",
      });
    graph = buildTopology(spec, p, machine, { maxMemory });
  }
  return graph;
}

/** One generator's entry in `commplan topologies`: its line, then one line per parameter. */
function generatorEntry(g: TopologyGenerator): string {
  let s = `${g.name}: ${g.title}\n`;
  for (const d of g.params)
    s += `    ${d.name}=<${d.type}>${d.unit ? ` (${d.unit})` : ""} default ${String(d.default)}: ${d.description}\n`;
  return s;
}

/** Registers `topologies` and `platform`. */
export function registerTopologies(program: Command, ctx: CliContext): void {
  program
    .command("topologies")
    .description(
      "list the network generators of --network (plan, simulate, verify, compare, precompute) and of platform's --topology with their parameters (spec syntax name:key=value,...)",
    )
    .option("--json", "machine-readable output")
    .action((o: { json?: boolean }) => {
      if (o.json)
        return ctx.io.out(
          JSON.stringify(
            TOPOLOGY_GENERATORS.map((g) => ({ name: g.name, title: g.title, params: g.params })),
            null,
            2,
          ) + "\n",
        );
      ctx.io.out(TOPOLOGY_GENERATORS.map(generatorEntry).join(""));
    });
  program
    .command("platform")
    .description(
      "write a SimGrid platform (version 4.1) of a network: a <cluster> (flat, FAT_TREE, TORUS) where one builds it, else explicit links and routes",
    )
    .option("--topology <spec>", `${TOPOLOGY_OPTION_HELP}; --network is the same option (required)`)
    .addOption(
      new Option("--network <spec>", "the same as --topology, as plan, simulate and verify name it").conflicts(
        "topology",
      ),
    )
    .option(
      "-P, --p <n>",
      "number of ranks (hosts 0..P-1): needed with a generator, which builds at least P hosts; a topology JSON file gives its hosts (default: all of them). An explicit platform of up to 256 ranks lists only their hosts and the links on their routes",
    )
    .addOption(new Option("--ranks <n>", "the same as -p, -P, as gen and demo name it").conflicts("p"))
    .option("--machine <name>", "machine preset whose 1/t_d is the default link bandwidth ('commplan machines')")
    .option(
      "--explicit",
      "always write explicit links and routes, never a <cluster>: commplan's routes, where a cluster has SimGrid's own (give it to compare a SimGrid run with commplan's replay)",
    )
    .option("-o, --output <file>", "the platform XML file, - for stdout", "-")
    .option(
      "--hostfile <file>",
      "also write the hostfile of ranks 0..P-1 (- for stdout, the platform then to -o FILE, and no --json)",
    )
    .option("--json", JSON_SUMMARY_HELP)
    .action(async (given: PlatformFlags & { topology?: string; network?: string; ranks?: string }, cmd: Command) => {
      const topology = given.topology ?? given.network;
      if (topology === undefined) cmd.error("error: required option '--topology <spec>' not specified");
      const p = given.p ?? given.ranks;
      const o = { ...given, topology, ...(p === undefined ? {} : { p }) };
      await platformAction(o, ctx);
    });
}

/** platform's flags but the topology (given as --topology or --network). */
interface PlatformFlags {
  p?: string;
  machine?: string;
  explicit?: boolean;
  output: string;
  hostfile?: string;
  json?: boolean;
}

/** platform's work, its options checked (topology from --topology or --network). */
async function platformAction(o: PlatformFlags & { topology: string }, ctx: CliContext): Promise<void> {
  refuseJsonOnStdout("platform", o.json, o.output);
  // the hostfile cannot share stdout with the platform XML (-o -, -o /dev/stdout) nor with the --json summary
  const xml = namesStdout(o.output) ? `the platform XML (-o ${o.output === "-" ? "-" : quoted(o.output)})` : null;
  const why =
    xml !== null
      ? `stdout already carries ${xml}; write the hostfile or the platform (-o) to a file`
      : "stdout already carries the --json summary; write the hostfile to a file, or leave out --json";
  if (xml !== null || o.json) refuseStdoutTarget("platform", "--hostfile", o.hostfile, why, "hostfile");
  const p = o.p === undefined ? undefined : intOption("p", o.p, 1, MAX_TOPOLOGY_HOSTS, "-P (--p, --ranks)");
  const machine = o.machine === undefined ? undefined : findMachine(o.machine);
  const inputs = o.topology.endsWith(".json") ? [o.topology] : [];
  const targets = [
    ["--output", o.output],
    ["--hostfile", o.hostfile],
  ] as const;
  await refuseOutputOntoInput("platform", inputs, targets);
  // both directories take a new file before the topology is built: a bad one fails now, with nothing written
  await checkOutputTargets("platform", targets);
  const { graph, routes } = loadTopology(o.topology, p, ctx.maxMemory, machine);
  const d = describeTopology(graph);
  const pieces = simgridTopologyPlatformPieces(d, routes, {
    ...(o.explicit ? { explicit: true } : {}),
    ...(p === undefined ? {} : { ranks: p }),
  });
  const written = { cluster: false };
  const hostfile = o.hostfile;
  // all or none: each file is filled as a temporary file, then both are renamed into place (writeOutputs)
  await writeOutputs(
    "platform",
    [
      { target: o.output, pieces: notingCluster(pieces, written) },
      ...(hostfile === undefined
        ? []
        : [
            {
              target: hostfile,
              pieces: [
                simgridTopologyHostfile(d, p ?? d.hosts.length, {
                  module: "platform",
                  ...(inputs.length === 0 ? {} : { file: o.topology }),
                }),
              ],
            },
          ]),
    ],
    { stdout: ctx.stdout },
  );
  const routing = graph.graph().routing;
  if (
    !o.explicit &&
    d.simgridCluster?.topology === "FAT_TREE" &&
    routing.kind === "shortest" &&
    routing.pick !== "dmodk"
  )
    ctx.io.err(
      "platform: note: SimGrid routes a FAT_TREE cluster D-mod-k, this network's routes are ECMP (the default): give routing=dmodk to replay the same routes, or --explicit to write commplan's\n",
    );
  if (o.output !== "-") {
    const how = written.cluster ? `a SimGrid ${d.simgridCluster!.topology} cluster` : "explicit links and routes";
    ctx.io.err(
      `platform: ${oneLine(o.topology)}: ${counted(p ?? d.hosts.length, "rank", "ranks")} on ${counted(d.hosts.length, "host", "hosts")}, ${how} -> ${o.output}\n`,
    );
  }
  if (o.json)
    printJson(ctx, {
      format: "commplan.platform/v1",
      topology: o.topology,
      ranks: p ?? d.hosts.length,
      hosts: d.hosts.length,
      simgridCluster: written.cluster ? d.simgridCluster!.topology : null,
      output: o.output,
      bytes: writtenBytes(o.output),
      hostfile:
        o.hostfile === undefined
          ? null
          : { path: o.hostfile, bytes: o.hostfile === "-" ? null : writtenBytes(o.hostfile) },
    });
}

/** The platform's pieces, passed on unchanged; sets `written.cluster` when one is a SimGrid `<cluster>`. */
function* notingCluster(pieces: Iterable<string>, written: { cluster: boolean }): Generator<string> {
  for (const piece of pieces) {
    if (piece.startsWith("  <cluster ")) written.cluster = true;
    yield piece;
  }
}
