/** The text and JSON `commplan simulate` adds for a run on a network: link contention beside node contention. */
import type { SimNetworkStats } from "../../machines/sim/link-contention.js";
import { fmt } from "../io.js";
import { oneLine } from "../../internal/quoted.js";

/** Lines for a run on a network: the link-contention factor, the load bound and the hottest links. */
export function networkText(n: SimNetworkStats, makespan: number): string {
  const r = n.recompute;
  let text =
    `network ${oneLine(n.name)} (${n.links} links, port sharing ${n.portSharing}): ` +
    (n.flc === null || n.freeCoreMakespan === null
      ? "f_lc not computed (--no-link-factor), "
      : `f_lc ${fmt(n.flc)} (makespan / ${fmt(n.freeCoreMakespan)} us with an infinite-bandwidth core), `) +
    `link load bound ${fmt(n.loadBound)} us (${fmt(makespan > 0 ? n.loadBound / makespan : 0)} of the makespan)\n` +
    `flow rates recomputed ${fmt(r.recomputes)} times over ${fmt(r.flowsTouched)} flows (a full recomputation: ${fmt(r.flowsActive)})\n`;
  if (n.hottest.length === 0) return text + "no bytes crossed the network\n";
  text += "hottest links (by busy time):\n";
  for (const h of n.hottest)
    text += `  ${oneLine(h.label)}: busy ${fmt(h.busy)} us (${fmt(h.busyFraction * 100)} %), ${fmt(h.bytes)} bytes, at most ${h.peakFlows} flow${h.peakFlows === 1 ? "" : "s"}\n`;
  return text;
}

/** The JSON fields of a run on a network (per-link arrays as plain lists). */
export function networkJson(n: SimNetworkStats): Record<string, unknown> {
  return {
    name: n.name,
    portSharing: n.portSharing,
    links: n.links,
    flc: n.flc,
    freeCoreMakespan: n.freeCoreMakespan,
    loadBound: n.loadBound,
    hottest: n.hottest,
    recompute: n.recompute,
    linkBytes: Array.from(n.bytes),
    linkBusy: Array.from(n.busy),
    linkPeakFlows: Array.from(n.peakFlows),
  };
}
