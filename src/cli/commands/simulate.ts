/** commplan simulate: replay a schedule (or run a run-time protocol on a matrix) on the simulated machine; exit 1 when data mode finds a delivery failure. */
import type { Command } from "commander";
import cliProgress from "cli-progress";
import { readScheduleJson } from "../../export/schedule-json-read.js";
import { scheduleToJsonText } from "../../export/schedule-json-write.js";
import { timelineToSvg } from "../../export/svg-gantt.js";
import { timelineToChromeTrace } from "../../export/trace-chrome.js";
import { scheduleCost } from "../../machines/cost-model.js";
import { findMachine } from "../../machines/presets.js";
import type { SimMode } from "../../machines/sim/options.js";
import { PROTOCOLS, runProtocol, type ProtocolName } from "../../machines/sim/protocols.js";
import { simulateSchedule, type NodeTimes } from "../../machines/sim/simulate.js";
import type { Timeline } from "../../machines/sim/timeline.js";
import { TOPOLOGIES, type TopologyName } from "../../machines/sim/topology.js";
import { fail } from "../../model/errors.js";
import { readMatrixFile } from "../../patterns/files/matrix-read.js";
import type { CliContext } from "../context.js";
import { fmt, intOption, numberOption, table, writeTextTarget } from "../io.js";

interface SimulateFlags {
  machine: string;
  mode: string;
  lockstep?: boolean;
  ports?: string;
  topology: string;
  buffers: string;
  data?: boolean;
  matrix?: string;
  json?: boolean;
  trace?: string;
  svg?: string;
  protocol?: string;
  realised?: string;
  seed: string;
  generateRecv?: boolean;
  busyMeasure?: boolean;
  earlyGoAhead?: boolean;
  inquiry?: string;
}

/** A progress reporter that shows a cli-progress bar on stderr once a run has lasted a second (TTY only). */
function progressFor(ctx: CliContext): { report: (done: number, total: number) => void; stop: () => void } {
  const t0 = Date.now();
  let bar: cliProgress.SingleBar | null = null;
  return {
    report: (done, total) => {
      if (!ctx.io.interactive) return;
      if (bar === null) {
        if (Date.now() - t0 < 1000) return;
        bar = new cliProgress.SingleBar({ stream: process.stderr, format: "simulate [{bar}] {percentage}% | {value}/{total} transfers" }, cliProgress.Presets.shades_classic);
        bar.start(total, done);
      }
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
}

/** Per-node times as text: every node when P <= 32, else the maximum and the mean of each column. */
function nodeTable(n: NodeTimes): string {
  const p = n.busy.length;
  const cols: [string, Float64Array][] = [["busy", n.busy], ["idle", n.idle], ["stalled", n.stalled], ["contention wait", n.wait], ["bytes sent", n.sentBytes], ["bytes received", n.recvBytes]];
  if (p <= 32) return table([["node", ...cols.map((c) => c[0])], ...Array.from({ length: p }, (_, v) => [String(v), ...cols.map((c) => fmt(c[1][v]!))])]);
  const max = (a: Float64Array): number => a.reduce((x, y) => Math.max(x, y), 0);
  const mean = (a: Float64Array): number => a.reduce((x, y) => x + y, 0) / p;
  return table([["", ...cols.map((c) => c[0])], ["max", ...cols.map((c) => fmt(max(c[1])))], ["mean", ...cols.map((c) => fmt(mean(c[1])))]]);
}

const perNode = (n: NodeTimes): Record<string, number[]> => ({
  busy: Array.from(n.busy),
  idle: Array.from(n.idle),
  stalled: Array.from(n.stalled),
  wait: Array.from(n.wait),
  sentBytes: Array.from(n.sentBytes),
  recvBytes: Array.from(n.recvBytes),
});

/** Registers `simulate`. */
export function registerSimulate(program: Command, ctx: CliContext): void {
  program
    .command("simulate")
    .argument("<input>", "schedule JSON (or, with --protocol, a matrix file); - for stdin")
    .description("replay a schedule on the event-driven simulated machine (or run the AC / DRS_N protocol on a matrix): makespan, per-node times, node-contention factor, timeline")
    .requiredOption("--machine <name>", "machine model (see 'commplan machines')")
    .option("--mode <mode>", "blocking or nonblocking", "blocking")
    .option("--lockstep", "a barrier after every step (000 fig. 3)")
    .option("--ports <k>", "send and receive ports per node (default: the machine's)")
    .option("--topology <name>", `network: ${TOPOLOGIES.join(", ")}`, "flat")
    .option("--buffers <n>", "nonblocking mode: send buffers per node (1 single, 2 dual)", "2")
    .option("--data", "data mode: move element tags along the payload chunks and check delivery (needs --matrix)")
    .option("-m, --matrix <file>", "the matrix the schedule was planned for (data mode)")
    .option("--json", "print the result as JSON")
    .option("--trace <file>", "write the timeline as Chrome trace JSON (Perfetto)")
    .option("--svg <file>", "write the timeline as an SVG Gantt chart")
    .option("--protocol <name>", `run a run-time protocol on the matrix <input>: ${PROTOCOLS.join(", ")}`)
    .option("--realised <file>", "with --protocol: write the realised trace as a timed schedule JSON")
    .option("--seed <n>", "seed of random choices (protocol send orders, OCPC resends)", "1")
    .option("--generate-recv", "with --protocol: run Generate_Recv (003 fig. 1) first")
    .option("--busy-measure", "drs-n: 000's first improvement (busy destinations say for how long)")
    .option("--early-go-ahead", "drs-n: 000's second improvement (go-ahead when the current receive is about to end)")
    .option("--inquiry <us>", "drs-n: time of one test-and-set inquiry (default 2 T_s)")
    .action(async (input: string, o: SimulateFlags) => {
      const machine = findMachine(o.machine);
      const seed = intOption("seed", o.seed, 0, 0xffffffff);
      const wantTimeline = o.trace !== undefined || o.svg !== undefined;
      let timeline: Timeline;
      let makespan: number;
      let json: Record<string, unknown>;
      let text: string;
      if (o.protocol !== undefined) {
        if (!PROTOCOLS.includes(o.protocol as ProtocolName)) throw fail("simulate", "BAD_OPTION", `--protocol must be one of ${PROTOCOLS.join(", ")}, got '${o.protocol}'`, { field: "protocol" });
        const m = readMatrixFile(input);
        const r = runProtocol(m, machine, {
          protocol: o.protocol as ProtocolName,
          seed,
          generateRecv: o.generateRecv ?? false,
          busyMeasure: o.busyMeasure ?? false,
          earlyGoAhead: o.earlyGoAhead ?? false,
          ...(o.inquiry !== undefined ? { inquiry: numberOption("inquiry", o.inquiry) } : {}),
          timeline: wantTimeline,
        });
        if (o.realised !== undefined) writeTextTarget(o.realised, scheduleToJsonText(r.realised), ctx.io);
        timeline = r.timeline;
        makespan = r.makespan;
        json = { format: "commplan.simulation/v1", protocol: r.protocol, machine: r.machine, p: m.p, makespan: r.makespan, generateRecvTime: r.generateRecvTime, inquiries: r.inquiries, totalWait: r.totalWait, fnc: r.fnc, nodes: perNode(r.nodes) };
        text =
          `${r.protocol} on ${r.machine}, P = ${m.p}: makespan ${fmt(r.makespan)} us` +
          (r.generateRecvTime > 0 ? ` (Generate_Recv ${fmt(r.generateRecvTime)} us)` : "") +
          `, contention wait ${fmt(r.totalWait)} us, f_nc ${fmt(r.fnc)}` +
          (r.protocol === "drs-n" ? `, ${fmt(r.inquiries)} inquiries` : "") +
          "\n" +
          nodeTable(r.nodes);
      } else {
        if (o.realised !== undefined) throw fail("simulate", "BAD_OPTION", "--realised goes with --protocol", { field: "realised" });
        const mode = o.mode as SimMode;
        if (mode !== "blocking" && mode !== "nonblocking") throw fail("simulate", "BAD_OPTION", `--mode must be blocking or nonblocking, got '${o.mode}'`, { field: "mode" });
        if (!TOPOLOGIES.includes(o.topology as TopologyName)) throw fail("simulate", "BAD_OPTION", `--topology must be one of ${TOPOLOGIES.join(", ")}, got '${o.topology}'`, { field: "topology" });
        if (o.data && o.matrix === undefined) throw fail("simulate", "BAD_OPTION", "--data needs --matrix <file> (the elements every node must end with)", { field: "matrix" });
        const m = o.matrix !== undefined ? readMatrixFile(o.matrix) : null;
        const s = await readScheduleJson(input);
        const progress = progressFor(ctx);
        let r;
        try {
          r = simulateSchedule(s, machine, {
            mode,
            lockstep: o.lockstep ?? false,
            ...(o.ports !== undefined ? { ports: intOption("ports", o.ports, 1, 1024) } : {}),
            topology: o.topology as TopologyName,
            ...(mode === "nonblocking" ? { sendBuffers: intOption("buffers", o.buffers, 1, 1024) } : {}),
            data: o.data ? m : null,
            timeline: wantTimeline,
            seed,
            progress: progress.report,
          });
        } finally {
          progress.stop();
        }
        const analytic = scheduleCost(s, machine, mode).total;
        timeline = r.timeline;
        makespan = r.makespan;
        json = {
          format: "commplan.simulation/v1",
          algorithm: s.algorithm,
          machine: r.machine,
          p: s.p,
          mode: r.mode,
          lockstep: r.lockstep,
          topology: r.topology,
          ports: r.ports,
          makespan: r.makespan,
          analytic,
          totalWait: r.totalWait,
          lmax: r.lmax,
          fnc: r.fnc,
          events: r.events,
          collisions: r.collisions,
          data: r.dataFailures === null ? null : { ok: r.dataFailureCount === 0, failures: r.dataFailureCount, first: r.dataFailures },
          nodes: perNode(r.nodes),
        };
        text =
          `${s.algorithm} on ${r.machine}, P = ${s.p}, ${r.mode}${r.lockstep ? " lock-step" : ""}, ${r.topology}: makespan ${fmt(r.makespan)} us (analytic ${fmt(analytic)} us)\n` +
          `contention wait ${fmt(r.totalWait)} us in total, f_nc ${fmt(r.fnc)}, L_max ${fmt(r.lmax)} bytes, ${fmt(r.events)} events` +
          (r.topology === "ocpc" ? `, ${fmt(r.collisions)} collisions` : "") +
          "\n" +
          nodeTable(r.nodes);
        if (r.dataFailures !== null) {
          if (r.dataFailureCount === 0) text += "data: every node holds exactly its elements\n";
          else {
            text += `data: ${r.dataFailureCount} failure(s):\n` + r.dataFailures.map((f) => `  ${f}\n`).join("");
          }
        }
        if (r.dataFailureCount > 0) ctx.exitCode = 1;
      }
      if (o.trace !== undefined) writeTextTarget(o.trace, timelineToChromeTrace(timeline, { machine: machine.name, makespan }), ctx.io);
      if (o.svg !== undefined) writeTextTarget(o.svg, timelineToSvg(timeline, makespan, { title: `commplan simulate on ${machine.name}` }), ctx.io);
      ctx.io.out(o.json ? JSON.stringify(json, null, 2) + "\n" : text);
    });
}
