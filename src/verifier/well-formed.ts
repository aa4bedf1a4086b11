/** Well-formedness: indices in range, positive integer sizes, chunks that add up to their transfer (DESIGN.md IR). */
import type { Schedule } from "../model/schedule.js";
import { check, type Check } from "./report.js";

const SOURCE = "docs/formats.md, Schedule";
const isCount = (v: number): boolean => v >= 1 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER;

/** Checks the columns of a schedule against P; later checks run only when this holds. */
export function checkWellFormed(s: Schedule): Check {
  const { p } = s;
  const bad = (w: string): Check =>
    check("well-formed", "indices in range, sizes positive integers, chunks add up", SOURCE, false, null, null, w);
  if (s.stepStart.length !== s.stepCount + 1 || s.stepStart[s.stepCount] !== s.transferCount)
    return bad("step table does not cover the transfers");
  for (let st = 0; st < s.stepCount; st++)
    if (s.stepStart[st]! > s.stepStart[st + 1]!) return bad(`step ${st} has a negative transfer range`);
  let expectStep = 0;
  for (const [k, stage] of s.stages.entries()) {
    if (stage.firstStep !== expectStep) return bad(`stage ${k + 1} does not start where stage ${k} ends`);
    expectStep += stage.stepCount;
  }
  if (expectStep !== s.stepCount) return bad("the stages do not cover every step");
  const { src, dst, size } = s; // locals for the loop over every transfer
  for (let x = 0; x < s.transferCount; x++) {
    if (src[x]! >= p || dst[x]! >= p)
      return bad(`transfer ${x}: node ${Math.max(src[x]!, dst[x]!)} is not in 0..${p - 1}`);
    if (!isCount(size[x]!)) return bad(`transfer ${x}: size ${size[x]} is not a positive integer`);
  }
  for (let k = 0; k < s.stallNode.length; k++)
    if (s.stallNode[k]! >= p) return bad(`stall of node ${s.stallNode[k]} is not in 0..${p - 1}`);
  const c = s.chunks;
  if (c) {
    for (let x = 0; x < s.transferCount; x++) {
      let sum = 0;
      for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
        if (c.origin[k]! >= p || c.dest[k]! >= p)
          return bad(`transfer ${x}, chunk ${k - c.start[x]!}: node out of range`);
        if (!isCount(c.count[k]!) || !(c.offset[k]! >= 0 && Number.isInteger(c.offset[k]!)))
          return bad(`transfer ${x}, chunk ${k - c.start[x]!}: offset ${c.offset[k]} / count ${c.count[k]} invalid`);
        sum += c.count[k]!;
      }
      if (sum !== s.size[x])
        return bad(
          `transfer ${x} (${s.src[x]} -> ${s.dst[x]}) has size ${s.size[x]} but its chunks carry ${sum} elements`,
        );
    }
  }
  return check("well-formed", "indices in range, sizes positive integers, chunks add up", SOURCE, true);
}
