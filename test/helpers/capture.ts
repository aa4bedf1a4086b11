/** Test helper: capture directories written as libcommplan writes them under COMMPLAN_CAPTURE=DIR. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureKey } from "../../src/cli/capture-key.js";
import { matrixFromRows, type CommMatrix } from "../../src/model/matrix.js";

/**
 * An MoE-like exchange at P = 4, 24 bytes per element, as libcommplan captures it (its key under Open MPI:
 * test/cli/precompute-capture.test.ts): a plan runs it faster than MPI_Alltoallv's default on ib-hdr-200.
 */
export const MOE_CAPTURE: CommMatrix = matrixFromRows(
  [
    [26, 11, 10, 1],
    [29, 10, 4, 5],
    [26, 11, 5, 6],
    [26, 7, 11, 4],
  ],
  { elementBytes: 24 },
);

/**
 * Writes a capture into `d` as libcommplan does: the matrix and its commplan.capture/v1 record, named
 * `<name>.matrix.json` and `<name>.capture.json` (default name `<key>-0-0`); returns the key (the matrix's, unless
 * `extra.key` gives another).
 */
export function writeCapture(
  d: string,
  m: CommMatrix,
  extra: { key?: string; calls?: number; call?: string; name?: string } = {},
): string {
  mkdirSync(d, { recursive: true });
  const key = extra.key ?? captureKey(m);
  const rows = Array.from({ length: m.p }, (_, i) => Array.from(m.data.subarray(i * m.p, (i + 1) * m.p)));
  const name = extra.name ?? `${key}-0-0`;
  const matrix = `${name}.matrix.json`;
  writeFileSync(
    join(d, matrix),
    JSON.stringify({ format: "commplan.matrix/v1", p: m.p, elementBytes: m.elementBytes, rows }),
  );
  const call = extra.call ?? "MPI_Alltoallv";
  const rec = { format: "commplan.capture/v1", key, p: m.p, elementBytes: m.elementBytes, call };
  writeFileSync(
    join(d, `${name}.capture.json`),
    JSON.stringify({ ...rec, site: "app(main+0x10)", calls: extra.calls ?? 3, matrix }),
  );
  return key;
}
