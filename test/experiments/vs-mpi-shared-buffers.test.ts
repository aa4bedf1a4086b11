/**
 * The vs-MPI bench's shared data buffers: which cases pass the executor `--shared-buffers` (their send and receive
 * buffers summed over ranks above SHARED_BUFFERS_BYTES), and the parser's verdict on a shared run's output.
 */
import { describe, expect, it } from "vitest";
import { parseSmpiRun } from "../../bench/vs-mpi-case.js";
import { SHARED_BUFFERS_BYTES, sharedBuffersNeeded, VS_MPI_SIZES } from "../../bench/vs-mpi-config.js";

/** The elements of a dense P x P matrix of one-element messages, the diagonal empty. */
const dense = (p: number): number => p * (p - 1);

describe("sharedBuffersNeeded", () => {
  it("shares the buffers above the threshold only: 1 GiB summed over ranks, send and receive", () => {
    expect(SHARED_BUFFERS_BYTES).toBe(2 ** 30);
    expect(sharedBuffersNeeded(2 ** 28, 2)).toBe(false); // exactly 1 GiB
    expect(sharedBuffersNeeded(2 ** 28 + 1, 2)).toBe(true);
    expect(sharedBuffersNeeded(0, 1 << 20)).toBe(false);
  });

  it("shares them for dense large messages at P = 256 (8 GiB), not at P = 64 (504 MiB) or for small ones", () => {
    const large = VS_MPI_SIZES.large;
    expect(sharedBuffersNeeded(dense(256), large)).toBe(true);
    expect(sharedBuffersNeeded(dense(128), large)).toBe(true);
    expect(sharedBuffersNeeded(dense(64), large)).toBe(false);
    expect(sharedBuffersNeeded(dense(256), VS_MPI_SIZES.small)).toBe(false);
    // a sparse workload: 4 messages a rank (h-relation's default) stays private at P = 256
    expect(sharedBuffersNeeded(256 * 4, large)).toBe(false);
  });
});

describe("parseSmpiRun on a --shared-buffers run", () => {
  const line = (label: string, verdict: string): string =>
    `${label} P=2: 1 exchange(s), time per exchange (max over ranks) min 1e-06 s, median 2e-06 s, max 3e-06 s; ${verdict}\n`;
  const notChecked = "data NOT checked (--shared-buffers: the ranks share their buffers' pages; 8 bytes per exchange)";
  const shared =
    "executor: --shared-buffers: every rank's data buffers share the same pages (SMPI_SHARED_MALLOC); the delivered " +
    "data is NOT checked\n" +
    line("program shift nonblocking", notChecked) +
    line("alltoallv", notChecked) +
    "[0.1] [smpi_utils/INFO] Simulated time: 0.1 seconds.\n";
  const checked = shared.replaceAll(notChecked, "every byte ok (8 bytes per exchange)");

  it("takes the times of a shared run whose lines say the data was not checked", () => {
    expect(parseSmpiRun(0, shared, true, undefined, true, true)).toEqual({ programUs: 2, alltoallvUs: 2, problem: "" });
  });

  it("refuses an unchecked run where a checked one was asked for, and a checked one where shared was", () => {
    expect(parseSmpiRun(0, shared, true).problem).toMatch(/^program: .*data NOT checked/);
    expect(parseSmpiRun(0, checked, true, undefined, true, true).problem).toMatch(/^program: .*every byte ok/);
    expect(parseSmpiRun(0, checked, true).problem).toBe("");
  });
});
