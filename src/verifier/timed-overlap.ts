/**
 * Timed contention: in a schedule with realised times, at most `ports` sends and `ports` receives of a node overlap in
 * time (003 sec 2.1; 004 sec 2.3, figs 2-3).
 */
import type { Schedule } from "../model/schedule.js";
import { check, type Check } from "./report.js";
import { counted } from "../internal/plural.js";

const ID = "timed-contention";
const SOURCE = "003 sec 2.1; 004 sec 2.3, figs 2-3 (node contention, in time)";

/**
 * For a schedule whose transfers carry `start` and `end` times (a realised trace), checks that at
 * no instant a node has more than `ports` network messages leaving it or more than `ports`
 * arriving. A transfer occupies [start, end): one that ends at t and one that starts at t do not
 * overlap; an empty interval (start == end) occupies nothing; a local copy (src == dst) uses no
 * port. Sweep over the intervals sorted by time, O(T log T). Returns null for an untimed schedule.
 */
export function checkTimedContention(s: Schedule, ports: number): Check | null {
  const times = s.times;
  if (times === null) return null;
  const { p, src, dst } = s;
  const { start, end } = times;
  let n = 0;
  for (let x = 0; x < s.transferCount; x++) if (src[x] !== dst[x] && end[x]! > start[x]!) n++;
  const byStart = new Uint32Array(n);
  for (let x = 0, k = 0; x < s.transferCount; x++) if (src[x] !== dst[x] && end[x]! > start[x]!) byStart[k++] = x;
  const byEnd = byStart.slice();
  byStart.sort((a, b) => start[a]! - start[b]! || a - b);
  byEnd.sort((a, b) => end[a]! - end[b]! || a - b);
  const sends = new Uint32Array(p),
    recvs = new Uint32Array(p);
  let worst = 0,
    bad = 0;
  let first = -1,
    firstSend = false;
  for (let i = 0, j = 0; i < n; i++) {
    const x = byStart[i]!;
    const t = start[x]!;
    for (; j < n && end[byEnd[j]!]! <= t; j++) {
      const y = byEnd[j]!;
      sends[src[y]!]!--;
      recvs[dst[y]!]!--;
    }
    const ns = ++sends[src[x]!]!,
      nr = ++recvs[dst[x]!]!;
    worst = Math.max(worst, ns, nr);
    if (ns > ports || nr > ports) {
      bad++;
      if (first < 0) {
        first = x;
        firstSend = ns > ports;
      }
    }
  }
  const title = `each node sends and receives at most ${counted(ports, "message", "messages")} at any instant (realised times)`;
  if (bad === 0) return check(ID, title, SOURCE, true, worst, ports);
  return check(ID, title, SOURCE, false, worst, ports, witness(s, first, firstSend, ports, bad));
}

/** Names the node, the transfer that started while the ports were full, one transfer it overlaps, and the time. */
function witness(s: Schedule, x: number, isSend: boolean, ports: number, bad: number): string {
  const { src, dst } = s;
  const { start, end } = s.times!;
  const t = start[x]!;
  const v = isSend ? src[x]! : dst[x]!;
  let other = -1;
  for (let y = 0; y < s.transferCount && other < 0; y++) {
    if (y === x || src[y] === dst[y] || !(start[y]! <= t && t < end[y]!)) continue;
    if ((isSend ? src[y] : dst[y]) === v) other = y;
  }
  const desc = (y: number): string => `transfer ${y} (${src[y]} -> ${dst[y]}, ${start[y]}..${end[y]} us)`;
  const verb = isSend ? "sends" : "receives";
  const kind = isSend ? "send" : "receive";
  return `node ${v} ${verb} ${desc(x)} while ${desc(other)} is under way, at ${t} us with ${ports} ${kind} port(s); ${bad} overlap(s) in all`;
}
