/**
 * SimGrid platform (version 4.1) and hostfile for a machine preset: a flat cluster whose route latency is the start-up
 * and whose bandwidth is the per-byte cost.
 */
import type { MachineModel } from "../model/machine.js";
import type { ExportedFile } from "./simgrid-trace.js";
import { MAX_P } from "../model/matrix.js";
import { numberOpt } from "./options.js";
import { xmlCommentText } from "./xml-escape.js";
import { simgridValue } from "./exact-number.js";
import { checkMachine } from "../model/machine.js";
import { fail } from "../model/errors.js";

/** Host speed of the platform (flops per second): `compute` actions are scaled to it. */
export const SIMGRID_HOST_FLOPS = 1e9;

/** Flops per copied byte for `compute` actions on this platform: t_m (us/byte) times the host speed. */
export function simgridCopyFlopsPerByte(machine: MachineModel): number {
  return machine.tm * (SIMGRID_HOST_FLOPS / 1e6);
}

/**
 * The link parameters: a route crosses two private links (the source's up and the destination's down, SPLITDUPLEX),
 * so `lat` is T_s / 2; the bandwidth is 1 / (t_c + t_d), the per-byte cost the flat cost model charges a message
 * (SimGrid has no separate host copy cost). No backbone: a FATPIPE one of the same bandwidth never binds (each flow
 * is capped by its private links already), and SimGrid's solver re-solves every flow that shares a link with a
 * changed one, so a backbone that every flow crosses made each message's start and end re-solve all flows in flight
 * (an MPI_Alltoallv of 65,280 messages at P = 256: over 3 minutes of wall time with it, 33 s without).
 */
export function simgridLinkParams(machine: MachineModel): { latUs: number; bytesPerSecond: number } {
  return { latUs: machine.ts / 2, bytesPerSecond: 1e6 / (machine.tc + machine.td) };
}

/** The cluster's host names, h0 .. h<P-1>. */
export function simgridHostName(r: number): string {
  return `h${r}`;
}

/** The platform XML for P hosts on `machine`. */
export function simgridPlatformXml(p: number, machine: MachineModel): string {
  // left out, p would be numberOpt's default (1): refused in the wording numberOpt gives any other bad p
  if (p === undefined)
    throw fail("export", "BAD_OPTION", `p must be an integer in 1..${MAX_P}, got undefined`, { field: "p" });
  checkMachine(machine, "export", "simgridPlatformXml");
  numberOpt("export", "p", p, 1, { min: 1, max: MAX_P, integer: true });
  const { latUs, bytesPerSecond } = simgridLinkParams(machine);
  const bw = simgridValue(bytesPerSecond, "Bps", "the bandwidth 1 / (t_c + t_d)", true);
  const lat = simgridValue(latUs, "us", "the latency T_s / 2", false);
  const title = xmlCommentText(machine.title);
  return (
    `<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n` +
    `<!-- commplan: machine ${xmlCommentText(machine.name)} (${title}); T_s = ${machine.ts} us, t_c + t_d = ${machine.tc + machine.td} us/byte -->\n` +
    `<platform version="4.1">\n` +
    `  <cluster id="c" prefix="h" suffix="" radical="0-${Math.max(0, p - 1)}" speed="${SIMGRID_HOST_FLOPS / 1e9}Gf" bw="${bw}" lat="${lat}" ` +
    `sharing_policy="SPLITDUPLEX"/>\n` +
    `</platform>\n`
  );
}

/** The hostfile: rank r runs on host h<r>. */
export function simgridHostfile(p: number): string {
  // left out, p would be numberOpt's default (1): refused in the wording numberOpt gives any other bad p
  if (p === undefined)
    throw fail("export", "BAD_OPTION", `p must be an integer in 1..${MAX_P}, got undefined`, { field: "p" });
  numberOpt("export", "p", p, 1, { min: 1, max: MAX_P, integer: true });
  let s = "";
  for (let r = 0; r < p; r++) s += simgridHostName(r) + "\n";
  return s;
}

/** The platform and hostfile as files named platform.xml and hosts. */
export function simgridPlatformFiles(p: number, machine: MachineModel): ExportedFile[] {
  return [
    { name: "platform.xml", pieces: () => [simgridPlatformXml(p, machine)] },
    { name: "hosts", pieces: () => [simgridHostfile(p)] },
  ];
}

/**
 * The smpirun flags that make SMPI charge exactly latency + (bytes + 16) / bandwidth per message (docs/runtimes.md).
 */
export const SMPI_FLAGS: readonly string[] = Object.freeze([
  "--cfg=smpi/display-timing:yes",
  "--cfg=network/model:CM02",
  "--cfg=network/crosstraffic:0",
  "--cfg=network/TCP-gamma:0",
  "--cfg=smpi/wtime:0",
  "--log=root.thres:warning",
  "--log=smpi_utils.thres:info",
]);
