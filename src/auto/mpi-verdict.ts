/**
 * auto's answer against what MPI already does: "call MPI_Alltoallv" when the library default wins (nothing is
 * predicted faster), else the plan, with the gain over the default and the effect it comes from (docs/auto.md).
 */
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { scheduleLoad, type Load } from "../model/schedule-load.js";
import { overheadAt } from "../machines/runtime/overhead.js";
import type { RuntimeModel } from "../machines/runtime/runtime-model.js";

export { scheduleLoad };
import type { Planner } from "../planner/types.js";
import { round } from "./candidates.js";

/**
 * How much faster than MPI_Alltoallv's default a plan must be predicted (relative) for auto to answer "use the plan":
 * below it, the gain is within what the prediction can tell apart, and calling MPI_Alltoallv costs the user nothing.
 */
export const MPI_MARGIN = 0.01;

/**
 * The margin on a runtime (AutoOptions.runtime): a plan must be predicted 5 % faster than the default. Against the
 * reference executor under SMPI, every rank starting at one instant, the program replay of plans is within about 1 %
 * and that of the default within a few percent (bench/results/vs-mpi.md, docs/auto.md); below the margin, calling
 * MPI_Alltoallv is the safe answer.
 */
export const RUNTIME_MPI_MARGIN = 0.05;

/**
 * Why a matrix with no messages between ranks (every count on the diagonal, or none) is left to MPI_Alltoallv: auto's
 * answer and `precompute --from-capture`'s replay decision say it in these words.
 */
export const NO_MESSAGES_REASON = "no messages between ranks: a plan has nothing to gain over MPI_Alltoallv";

/** Whether any rank sends another rank an element (a matrix whose counts are all on its diagonal sends no message). */
export function hasMessages(m: CommMatrix): boolean {
  const { rowStart, col } = matrixRows(m);
  for (let i = 0; i < m.p; i++) for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (col[k] !== i) return true;
  return false;
}

/**
 * How the verdict's effect begins when auto's pick is the planner standing for MPI_Alltoallv's default (mpi-linear):
 * the same messages as calling MPI_Alltoallv, so no time reads as a gain of the default over itself.
 */
export function defaultItself(planner: string): string {
  return `auto's pick, ${planner}, is MPI_Alltoallv's default itself`;
}

/** What auto expects against MPI_Alltoallv's default (the auto header's `mpi` block). */
export interface MpiVerdict {
  /** `call MPI_Alltoallv` when the library default wins, else `use the plan`. */
  readonly answer: "call MPI_Alltoallv" | "use the plan";
  /** The planner standing for MPI_Alltoallv's default (traits.mpi.isDefault), or null when none was weighed. */
  readonly mpiDefault: string | null;
  /** Its predicted makespan (us), or null when it was not simulated. */
  readonly mpiSimulated: number | null;
  /**
   * Percent of the default's makespan the winner saves, from the two times `speedup` compares too (the sign of the
   * speed-up minus 1, each rounded to 3 decimals on its own: a near tie may read 0.001 beside 1; negative when the
   * winner is slower; 0 for a matrix without messages), null when unknown.
   */
  readonly gain: number | null;
  /** The winner's predicted makespan (us), the time `gain` and `speedup` compare; null when unknown. */
  readonly planSimulated: number | null;
  /** The default's makespan over the winner's (above 1: the plan is faster), null when unknown. */
  readonly speedup: number | null;
  /** Where the gain comes from (or why MPI_Alltoallv is kept), in words. */
  readonly effect: string;
}

/** The effects that make `w` faster than the default `d`, in words. */
function effects(w: Load, d: Load): string {
  const out: string[] = [];
  if (w.atOnce < d.atOnce)
    out.push(`fewer messages per node at once (${w.atOnce} vs ${d.atOnce}): less contention at each node's ports`);
  if (w.startups < d.startups)
    out.push(`fewer messages per node (${w.startups} vs ${d.startups} start-ups): small messages combined in relays`);
  if (out.length === 0)
    out.push(`the same messages in ${w.steps} steps instead of ${d.steps}: fewer idle links while the long ones go`);
  return out.join("; ");
}

/** What the verdict knows of a runtime (AutoOptions.runtime): P, the runtime model, the variant the winner runs in. */
export interface VerdictRuntime {
  readonly p: number;
  readonly runtime: RuntimeModel;
  readonly variant: string;
  /** The links' time per byte (us: the machine's t_c + t_d), to price the envelopes of the messages a plan saves. */
  readonly usPerByte: number;
}

/**
 * The effects that make `w` faster than MPI_Alltoallv's default on a runtime by `saved` us, in words. The library posts
 * a message to and from every other rank, empty ones included (P - 1 each way per rank), all at once; the runtime has
 * no port limit, so what a plan saves is messages (each with its send and receive overheads and its envelope), the
 * library's rank order, and, when it runs in rounds, messages in flight at once. The messages' part is priced (the
 * overheads of the messages a rank no longer sends and receives, their envelopes on its link); where it is less than
 * half the saving, the words say the rest comes from the plan's order of messages.
 */
function runtimeEffects(w: Load, mean: number, relays: boolean, saved: number, o: VerdictRuntime): string {
  const lib = o.p - 1;
  // w counts the busiest rank's messages; most ranks may send fewer: their mean too, where it differs
  const every = mean === w.startups;
  const busiest = every ? "at every rank" : `at the busiest rank (a mean of ${Math.round(10 * mean) / 10} per rank)`;
  const rt = o.runtime;
  const send = overheadAt(rt.isendOverhead, 0),
    recv = overheadAt(rt.recvOverhead, 0);
  const fewer = lib - w.startups;
  const perMessage = send + recv + rt.envelopeBytes * o.usPerByte;
  const priced = round(fewer * perMessage);
  const each =
    send > 0 || recv > 0
      ? `${rt.name}'s per-message overheads, ${send} us to send and ${recv} us to receive, and a ` +
        `${rt.envelopeBytes}-byte envelope each`
      : `a ${rt.envelopeBytes}-byte envelope each on the links; ${rt.name} has no per-message overheads`;
  const out: string[] = [];
  if (fewer > 0)
    out.push(
      `fewer messages: ${w.startups} ${busiest} vs the library's ${lib} at every rank (it posts the empty ones too` +
        (relays ? "; the plan combines small messages in relays" : "") +
        `); the library's ${fewer} more cost ${every ? "each" : "the busiest"} rank about ${priced} us (${each})`,
    );
  if (o.variant === "nonblocking" && w.atOnce < lib)
    out.push(`fewer messages in flight at once at the busiest rank (${w.atOnce} vs ${lib}): less sharing of its links`);
  if (fewer * perMessage < saved / 2)
    out.push(
      `${out.length === 0 ? `the same ${lib} messages ${busiest}, ` : "the rest: "}posted in the plan's order instead ` +
        `of the library's (every rank posts to rank 0 first and to rank ${lib} last): less sharing of the links`,
    );
  return out.join("; ");
}

/** The mean number of messages a rank sends in `s` (to another rank; as many as it receives, on the mean). */
function meanMessages(s: Schedule): number {
  let n = 0;
  for (let x = 0; x < s.transferCount; x++) if (s.src[x] !== s.dst[x]) n++;
  return n / s.p;
}

/** One weighed candidate as the verdict reads it. */
export interface VerdictCandidate {
  readonly planner: Planner;
  readonly label: string;
  /** Its makespan (us): the winner's simulated, the default's as the library runs it; null when unknown. */
  readonly simulated: number | null;
  readonly schedule: Schedule | null;
}

/**
 * The verdict for `winner` against `def`, MPI_Alltoallv's default run as the library runs it (null when it was not
 * weighed): `call MPI_Alltoallv` when the winner is not faster than it by more than `margin`, else the plan, with
 * the gain, the speed-up and the effect it comes from. `next`: the best other finalist, for the words. `moves`: whether
 * the matrix has messages between ranks (hasMessages; default: whether the winner's plan has a transfer); without, the
 * answer is `call MPI_Alltoallv` (NO_MESSAGES_REASON), whatever the model charges the default for its empty rounds.
 * `onRuntime`: the runtime auto planned for (AutoOptions.runtime), whose default posts every message, empty ones
 * included, so the effect compares the winner with that, not with mpi-linear's plan.
 */
export function mpiVerdict(
  winner: VerdictCandidate,
  def: VerdictCandidate | null,
  next: string | null,
  margin = MPI_MARGIN,
  moves = winner.schedule === null || winner.schedule.transferCount > 0,
  onRuntime: VerdictRuntime | null = null,
): MpiVerdict {
  const does = winner.planner.traits.mpi;
  const library = does && !does.isDefault ? ` (what ${does.does} does: select it in the library instead)` : "";
  const unknown = { planSimulated: winner.simulated, speedup: null };
  if (!moves)
    return {
      answer: "call MPI_Alltoallv",
      mpiDefault: def?.planner.name ?? null,
      mpiSimulated: def?.simulated ?? null,
      gain: 0,
      ...unknown,
      effect: NO_MESSAGES_REASON,
    };
  if (def === null || def.simulated === null || winner.simulated === null)
    return {
      answer: "use the plan",
      mpiDefault: def?.planner.name ?? null,
      mpiSimulated: null,
      gain: null,
      ...unknown,
      effect: `MPI_Alltoallv's default was not weighed${library}`,
    };
  const gain = round((100 * (def.simulated - winner.simulated)) / def.simulated);
  const times = {
    planSimulated: winner.simulated,
    speedup: winner.simulated > 0 ? Math.round((1000 * def.simulated) / winner.simulated) / 1000 : null,
  };
  const same = winner.planner === def.planner;
  // auto's pick is the default's own algorithm: said first, so no time below reads as a gain over itself
  const itself = defaultItself(def.planner.name);
  if (def.simulated <= winner.simulated * (1 + margin)) {
    const best = same ? next : `${winner.label}, ${winner.simulated} us`;
    // the winner is the fastest plan: when it is faster than the default, only by less than the margin
    const faster = winner.simulated < def.simulated ? `more than ${round(100 * margin)} % faster` : "faster";
    // gain and speed-up both from the two times (the gain was 0 for the default's own plan whatever its speed-up)
    return {
      answer: "call MPI_Alltoallv",
      mpiDefault: def.planner.name,
      mpiSimulated: def.simulated,
      gain,
      ...times,
      effect: same
        ? `${itself}: call MPI_Alltoallv or run this plan, the same messages` +
          (best ? ` (the best other plan: ${best})` : "")
        : `no plan is predicted ${faster} than MPI_Alltoallv's default` + (best ? ` (the best plan: ${best})` : ""),
    };
  }
  const how =
    onRuntime !== null && winner.schedule
      ? (same ? `${itself}, without the library's empty messages: ` : "") +
        runtimeEffects(
          scheduleLoad(winner.schedule),
          meanMessages(winner.schedule),
          winner.planner.traits.relayed,
          def.simulated - winner.simulated,
          onRuntime,
        )
      : same
        ? `${itself}: the same messages as calling MPI_Alltoallv, predicted faster only as the plan runs them (its ` +
          "lowered program's order) instead of all at once as the library does"
        : winner.schedule && def.schedule
          ? effects(scheduleLoad(winner.schedule), scheduleLoad(def.schedule))
          : "";
  return {
    answer: "use the plan",
    mpiDefault: def.planner.name,
    mpiSimulated: def.simulated,
    gain,
    ...times,
    effect: how + library,
  };
}
