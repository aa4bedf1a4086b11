/** commplan demo: plan, verify, cost and replay a built-in example (004 Pattern1, one spike) with every planner. */
import { cliMessage } from "../option-flags.js";
import type { Command } from "commander";
import { MAX_SEED } from "../../model/param-spec.js";
import { scheduleCost } from "../../machines/cost-model.js";
import { findMachine } from "../../machines/presets.js";
import { simulateSchedule } from "../../machines/sim/index.js";
import { isCommplanError } from "../../model/errors.js";
import { matrixStats } from "../../model/matrix-stats.js";
import { generatePattern } from "../../patterns/index.js";
import { PLANNERS, resolvePlanOptions } from "../../planner/registry.js";
import { verifySchedule } from "../../verifier/index.js";
import type { CliContext } from "../context.js";
import { fmt, intOption, RANKS_FLAGS, table } from "../io.js";

/** Registers `demo`. */
export function registerDemo(program: Command, ctx: CliContext): void {
  program
    .command("demo")
    .description(
      "plan, verify, cost and replay a built-in example (004 Pattern1 'one spike') with every matrix planner (the te-* protocols: see te-table)",
    )
    .option("--p, --ranks <n>", "number of nodes (1..512)", "16")
    .option(
      "--machine <name>",
      "machine model of the planners with a cost model, the cost and the replay (see 'commplan machines')",
      "t3d-004",
    )
    .option("--seed <s>", "random seed", "1")
    .option("--json", "machine-readable output")
    .action((o: { ranks: string; machine: string; seed: string; json?: boolean }) => {
      const p = intOption("p", o.ranks, 1, 512, RANKS_FLAGS);
      const seed = intOption("seed", o.seed, 0, MAX_SEED);
      const machine = findMachine(o.machine);
      const m = generatePattern("pattern1", p, { mmax: 1024, small: 1 }, seed);
      const st = matrixStats(m);
      // the total-exchange protocols route h-relations of unit packets, not a spike pattern: they have their own table
      const results = PLANNERS.filter((pl) => pl.traits.family?.name !== "total-exchange").map((planner) => {
        try {
          const s = planner.plan(m, resolvePlanOptions(planner, { payload: true, seed, machine }));
          // MPI's own algorithms (linear, scattered) post several messages per node at once: a many-port machine
          let ports = 1;
          let r = verifySchedule(m, s, { ports });
          if (!r.ok && planner.traits.mpi) r = verifySchedule(m, s, { ports: (ports = Infinity) });
          // the replay moves element tags (data mode): an end-to-end delivery check independent of the verifier
          const sim = simulateSchedule(s, machine, { mode: "blocking", data: m, timeline: false, seed });
          return {
            algorithm: planner.name,
            verified: r.ok && sim.dataFailureCount === 0,
            /** The ports the verifier allowed a node (null: unlimited, MPI's plans). */
            verifiedPorts: Number.isFinite(ports) ? ports : null,
            failed: [
              ...r.checks.filter((c) => !c.holds).map((c) => c.id),
              ...(sim.dataFailureCount > 0 ? ["data-mode"] : []),
            ],
            stages: s.stages.length,
            steps: s.stepCount,
            transfers: s.transferCount,
            blockingUs: scheduleCost(s, machine, "blocking").total,
            nonblockingUs: scheduleCost(s, machine, "nonblocking").total,
            simulatedUs: sim.makespan,
            maxWaitUs: Math.max(0, ...sim.nodes.wait),
            fnc: sim.fnc,
          };
        } catch (e) {
          if (!isCommplanError(e)) throw e;
          return { algorithm: planner.name, skipped: cliMessage(e.message) };
        }
      });
      if (results.some((r) => "verified" in r && !r.verified)) ctx.exitCode = 1;
      if (o.json)
        return ctx.io.out(
          JSON.stringify(
            {
              format: "commplan.demo/v1",
              pattern: "pattern1",
              p,
              seed,
              machine: machine.name,
              stats: { t: st.t, h: st.h, mMax: st.mMax, lMax: st.lMax },
              results,
            },
            null,
            2,
          ) + "\n",
        );
      let text = `commplan demo: 004 Pattern1 (one spike), P = ${p}, seed ${seed}: ${p === 1 ? "one node, with no other to send to: nothing is sent" : "every node sends 1024 elements to one random node and 1 to the others"}.\n`;
      text += `Matrix: t = ${fmt(st.t)}, h = ${st.h}, M_max = ${fmt(st.mMax)}, ${st.messages} messages.\n`;
      text += `Each planner makes an element-level plan; the verifier checks it, the flat model of ${machine.name} costs it (${machine.source}), `;
      text += `and the simulated machine replays it in blocking mode without a barrier per step, moving every element (data mode); max wait is the longest time one node's messages waited for a busy receiver (node contention). `;
      text += `MPI's algorithms (mpi-*) post several messages of a node at once, as an MPI library does: those that do are verified with unlimited ports ("yes, any ports"; verify --ports unlimited), every other plan with one port, the papers' machine.\n\n`;
      const rows = [
        [
          "algorithm",
          "verified",
          "stages",
          "steps",
          "transfers",
          "blocking us",
          "nonblocking us",
          "simulated us",
          "max wait us",
        ],
      ];
      for (const r of results) {
        if ("skipped" in r) rows.push([r.algorithm, "skipped", "", "", "", "", "", "", r.skipped ?? ""]);
        else
          rows.push([
            r.algorithm,
            r.verified ? (r.verifiedPorts === null ? "yes, any ports" : "yes") : `NO (${r.failed.join(", ")})`,
            String(r.stages),
            String(r.steps),
            fmt(r.transfers),
            fmt(r.blockingUs),
            fmt(r.nonblockingUs),
            fmt(r.simulatedUs),
            fmt(r.maxWaitUs),
          ]);
      }
      text += table(rows, ctx.io.stdoutColumns);
      text +=
        "\nThe total-exchange protocols (te-*) route h-relations of unit packets: try commplan te-table --n 64 --seeds 3.\n";
      text +=
        "Try: commplan gen pattern1 --p 64 -o m.json && commplan plan m.json -a shift --payload -o s.json && commplan verify s.json -m m.json\n";
      ctx.io.out(text);
    });
}
