/**
 * Runtime models of today's networks: what an MPI runtime adds to the links (per-message overheads, eager and
 * rendezvous sends, the envelope, a limit on messages in flight), with the SMPI configuration that reproduces each.
 */
import { deepFreeze } from "../../internal/deep-freeze.js";
import { didYouMean } from "../../internal/did-you-mean.js";
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import { flatOverhead, NO_OVERHEAD, smpiOverheadText, type Overhead } from "./overhead.js";
import { checkMachine } from "../../model/machine.js";
import { checkArg, isOptionsObject } from "../../model/option-checks.js";
import { checkOverhead } from "./overhead.js";

/** How a runtime executes point-to-point messages on top of the links of a machine or network. */
export interface RuntimeModel {
  readonly name: string;
  readonly title: string;
  /** Where its figures come from. */
  readonly source: string;
  /** The machine preset whose latency and bandwidth it goes with (the platform's links). */
  readonly machine: string;
  /** Blocking send of an eager message (SMPI `smpi/os`): CPU time before the message leaves. */
  readonly sendOverhead: Overhead;
  /** Nonblocking send (SMPI `smpi/ois`): CPU time before the message leaves, eager or not. */
  readonly isendOverhead: Overhead;
  /** Receive of an eager message (SMPI `smpi/or`): CPU time when the receiver waits for it, after it arrived. */
  readonly recvOverhead: Overhead;
  /** Sends of fewer bytes than this are eager (SMPI `smpi/send-is-detached-thresh`): the sender does not wait. */
  readonly eagerBytes: number;
  /** Bytes added to every message on the wire (SMPI's 16-byte envelope). */
  readonly envelopeBytes: number;
  /** Most messages a rank has on the wire at once (later ones wait their turn); Infinity: no limit. */
  readonly maxInFlight: number;
  /** Whether local copies cost the machine's t_m per byte (SMPI: a `compute` action); false: free. */
  readonly copies: boolean;
}

/** SMPI's default eager / rendezvous threshold (bytes). */
export const SMPI_EAGER_BYTES = 65536;
/** SMPI's envelope (bytes added to every message). */
export const SMPI_ENVELOPE_BYTES = 16;

const PLAIN: RuntimeModel = {
  name: "smpi",
  title: "SMPI 3.32 in its plain configuration (no software overheads)",
  source:
    "SimGrid 3.32 src/smpi/mpi/smpi_request.cpp: detached (eager) sends below smpi/send-is-detached-thresh = 65536 bytes, " +
    "a 16-byte envelope on every message; smpi/os, smpi/or, smpi/ois default to 0",
  machine: "",
  sendOverhead: NO_OVERHEAD,
  isendOverhead: NO_OVERHEAD,
  recvOverhead: NO_OVERHEAD,
  eagerBytes: SMPI_EAGER_BYTES,
  envelopeBytes: SMPI_ENVELOPE_BYTES,
  maxInFlight: Infinity,
  copies: true,
};

/**
 * InfiniBand HDR with an MPI library's per-message software cost: the machine preset ib-hdr-200's start-up (0.6 us,
 * the adapter's latency) is charged on the links, and the MPI library adds its send and receive halves on the host.
 */
const IB_HDR_MPI: RuntimeModel = {
  name: "ib-hdr-200-mpi",
  title: "InfiniBand HDR 200 Gb/s (ConnectX-6) with per-message MPI overheads",
  source:
    "links: machine ib-hdr-200 (ConnectX-6 'sub-600ns latency', osu_bw 21307 MB/s; docs/machines.md). Overheads: " +
    "o_s = o_r = 0.3 us per message, the preset's tsSend = T_s / 2 split (assumption: no cited per-message MPI " +
    "overhead of HDR), charged by SMPI as smpi/os, smpi/ois and smpi/or",
  machine: "ib-hdr-200",
  sendOverhead: flatOverhead(0.3),
  isendOverhead: flatOverhead(0.3),
  recvOverhead: flatOverhead(0.3),
  eagerBytes: SMPI_EAGER_BYTES,
  envelopeBytes: SMPI_ENVELOPE_BYTES,
  maxInFlight: Infinity,
  copies: true,
};

/** The runtime model presets. */
export const RUNTIME_MODELS: readonly RuntimeModel[] = deepFreeze([PLAIN, IB_HDR_MPI]);

/** The runtime preset called `name` (one-line error naming the known ones otherwise). */
export function findRuntimeModel(name: string): RuntimeModel {
  const m = RUNTIME_MODELS.find((x) => x.name === name);
  if (m === undefined) {
    const names = RUNTIME_MODELS.map((x) => x.name);
    throw fail("machines", "BAD_OPTION", `unknown runtime model '${name}'${didYouMean(name, names)}`, {
      field: "runtime",
    });
  }
  return m;
}

/** SimGrid's network model flags that the replay reproduces (CM02, no cross traffic, no TCP window bound). */
export const SMPI_MODEL_CFG: readonly string[] = Object.freeze([
  "--cfg=network/model:CM02",
  "--cfg=network/crosstraffic:0",
  "--cfg=network/TCP-gamma:0",
  "--cfg=smpi/wtime:0",
]);

/** What a bench or test passes smpirun to reproduce a runtime model on a machine's flat cluster. */
export interface SmpiConfig {
  /** The `--cfg=...` flags: the CM02 network model of docs/runtimes.md, then the runtime's own. */
  readonly cfg: readonly string[];
  /** The cluster's link latency (us): a route crosses two, so T_s / 2. */
  readonly linkLatencyUs: number;
  /** The cluster's link bandwidth (bytes per second): 1 / (t_c + t_d). */
  readonly linkBytesPerSecond: number;
}

/** The SMPI configuration of `model` on `machine` (flags and the flat cluster's link parameters). */
export function smpiConfigOf(model: RuntimeModel, machine: MachineModel): SmpiConfig {
  checkRuntimeModel("smpiConfigOf", model);
  checkMachine(machine, "machines", "smpiConfigOf");
  const cfg = [...SMPI_MODEL_CFG, `--cfg=smpi/send-is-detached-thresh:${model.eagerBytes}`];
  const add = (key: string, o: Overhead): void => {
    if (o.length > 0) cfg.push(`--cfg=smpi/${key}:${smpiOverheadText(o)}`);
  };
  add("os", model.sendOverhead);
  add("ois", model.isendOverhead);
  add("or", model.recvOverhead);
  return { cfg, linkLatencyUs: machine.ts / 2, linkBytesPerSecond: 1e6 / (machine.tc + machine.td) };
}

/** A copy of `model` with other fields (e.g. a rendezvous-only run: `{ eagerBytes: 0 }`). */
export function withRuntime(model: RuntimeModel, change: Partial<RuntimeModel>): RuntimeModel {
  checkRuntimeModel("withRuntime", model);
  checkArg("machines", "withRuntime", "change", change, isOptionsObject(change), "an object of the fields to change");
  return { ...model, ...change };
}

/** The runtime models that go with `machine` (the generic ones and those made for it) and their SMPI configuration. */
export function runtimeModelsFor(
  machine: MachineModel,
): readonly { readonly name: string; readonly title: string; readonly source: string; readonly smpi: SmpiConfig }[] {
  checkMachine(machine, "machines", "runtimeModelsFor");
  return RUNTIME_MODELS.filter((m) => m.machine === "" || m.machine === machine.name).map((m) => ({
    name: m.name,
    title: m.title,
    source: m.source,
    smpi: smpiConfigOf(m, machine),
  }));
}

/** Refuses a runtime model that is not one (an entry of RUNTIME_MODELS or findRuntimeModel's), naming `fn`. */
function checkRuntimeModel(fn: string, model: unknown): void {
  const ok = isOptionsObject(model) && typeof model["name"] === "string" && typeof model["eagerBytes"] === "number";
  checkArg("machines", fn, "model", model, ok, "a RuntimeModel (an entry of RUNTIME_MODELS or findRuntimeModel's)");
  const m = model as RuntimeModel;
  for (const k of ["sendOverhead", "isendOverhead", "recvOverhead"] as const) checkOverhead(fn, m[k], `model.${k}`);
}
