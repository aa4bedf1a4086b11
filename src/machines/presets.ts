/**
 * Machine presets: the platform tables of 004 (table 1) and 002 (table 1), and today's interconnects with cited
 * figures.
 */
import { deepFreeze } from "../internal/deep-freeze.js";
import { fail } from "../model/errors.js";
import type { MachineModel } from "../model/machine.js";
import { CM5_RATES } from "./sim/fabric.js";
import { didYouMean } from "../internal/did-you-mean.js";

/*
 * Conventions used by every preset below (docs/machines.md repeats them with every number):
 *
 * - T_s is the tables' start-up column; tsSend = T_s / 2 (no paper gives the split; on the CM-5,
 *   000 section 3 measures 1.6 us to send and 1.7 us to receive an active message, near even).
 * - The old tables give only one per-byte figure (004: "t_c + t_d"; 002: "t_d", the same numbers
 *   for CM5/SP2/T3D, so 004 reads 002's column as t_c + t_d and so do we). We split it by taking
 *   t_d = 1 / (peak link bandwidth per direction, cited) and t_c = the rest: what the node spends
 *   copying between memory and the interface (the processor itself on the CM-5, which has no DMA).
 * - t_m (compose / decompose copy) has no table value in either paper. For the old machines we
 *   assume t_m = t_c: both are copies through the same node memory system (004 section 2.1).
 * - barrier = 2 T_s: two rounds of a message-passing (dissemination) barrier, the cost for 4 nodes;
 *   an upper-side figure on machines with a hardware barrier network (CM-5 control network, T3D/T3E).
 * - ports = 1 (one send and one receive port; the SP2's and T3D's "bidirectional I/O ports" of 002
 *   table 1 are still one send + one receive).
 */

/** us/byte for a bandwidth in MB/s (1 MB/s = 1 byte/us). */
const perByte = (mbPerSecond: number): number => 1 / mbPerSecond;

const T004 = "Liu, Wang, Prasanna, JPDC 2002 (paper 004), table 1";
const T002 = "Liu, Wang, Prasanna, ICDCS 1996 (paper 002), table 1";

/** Link rates used to split t_c + t_d (MB/s per direction) and where they come from. */
const LINK = {
  cm5: { mbs: 20, src: "CM-5 data network, 20 MB/s within a cluster of 4 (paper 000, section 3)" },
  sp2: {
    mbs: 40,
    src: "SP2 High-Performance Switch, 40 MB/s per direction (Stunkel et al., 'The SP2 High-Performance Switch', IBM Systems Journal 34(2), 1995; see also 004 ref. 29)",
  },
  t3d: { mbs: 300, src: "T3D torus, 300 MB/s in each direction (https://en.wikipedia.org/wiki/Cray_T3D)" },
  t3e: {
    mbs: 300,
    src: "T3E torus, 300 MB/s point to point (van der Steen, Dongarra, Overview of recent supercomputers, https://www.netlib.org/utk/papers/advanced-computers.0/t3e.html)",
  },
  myrinet: {
    mbs: 80,
    src: "Myrinet link, 640 Mb/s = 80 MB/s per direction (Boden et al., 'Myrinet: a gigabit-per-second local area network', IEEE Micro 15(1), 1995)",
  },
  atm: { mbs: 155.52 / 8, src: "ATM OC-3c, 155.52 Mb/s = 19.44 MB/s line rate of the FORE SBA-200 (SONET OC-3c)" },
} as const;

interface OldRow {
  readonly name: string;
  readonly title: string;
  readonly table: string;
  readonly ts: number;
  /** The table's per-byte figure, read as t_c + t_d (us/byte). */
  readonly perByte: number;
  readonly link: (typeof LINK)[keyof typeof LINK];
  readonly extra: string;
}

/** A preset from one row of an old platform table, with the documented split. */
function oldMachine(r: OldRow): MachineModel {
  const td = perByte(r.link.mbs);
  const tc = r.perByte - td;
  return {
    name: r.name,
    title: r.title,
    source: `${r.table}: start-up ${r.ts} us, ${r.perByte} us/byte (t_c + t_d)`,
    ts: r.ts,
    tsSend: r.ts / 2,
    tc,
    td,
    tm: tc,
    ports: 1,
    barrier: 2 * r.ts,
    notes:
      `t_d = 1 / link rate: ${r.link.src}; t_c = ${r.perByte} - t_d. ` +
      `t_m = t_c (assumption: no table value; compose copies run through the same memory system). ` +
      `tsSend = T_s / 2 (assumption). barrier = 2 T_s (assumption: two dissemination rounds). ${r.extra}`,
  };
}

const OLD_004: readonly OldRow[] = [
  {
    name: "cm5-004",
    title: "TMC CM-5, CMMD (004 table 1)",
    table: T004,
    ts: 85,
    perByte: 0.12,
    link: LINK.cm5,
    extra: "No DMA: the main processor does the interface copy, so t_c is the larger part.",
  },
  {
    name: "sp2-004",
    title: "IBM SP2, MPICH (004 table 1)",
    table: T004,
    ts: 44,
    perByte: 0.035,
    link: LINK.sp2,
    extra: "DMA engine and communication co-processor.",
  },
  {
    name: "t3d-004",
    title: "Cray T3D, MPICH (004 table 1)",
    table: T004,
    ts: 38,
    perByte: 0.043,
    link: LINK.t3d,
    extra:
      "Support circuitry; the per-byte cost is dominated by the memory side (004 section 4 on T3D memory bandwidth).",
  },
  {
    name: "t3e-004",
    title: "Cray T3E, MPI-EPCC (004 table 1)",
    table: T004,
    ts: 28,
    perByte: 0.006,
    link: LINK.t3e,
    extra: "Support circuitry with DMA.",
  },
  {
    name: "myrinet-004",
    title: "SPARCstation + Myrinet + LANai, Myrinet API (004 table 1)",
    table: T004,
    ts: 68,
    perByte: 0.027,
    link: LINK.myrinet,
    extra: "LANai message processor with DMA.",
  },
];

const OLD_002: readonly OldRow[] = [
  {
    name: "cm5-002",
    title: "TMC CM-5, single I/O port (002 table 1)",
    table: T002,
    ts: 170,
    perByte: 0.12,
    link: LINK.cm5,
    extra: "002 calls the start-up T_d and the per-byte figure t_d; its t_d equals 004's t_c + t_d for this machine.",
  },
  {
    name: "sp2-002",
    title: "IBM SP2, bidirectional I/O ports (002 table 1)",
    table: T002,
    ts: 96,
    perByte: 0.035,
    link: LINK.sp2,
    extra: "Printed as 'ISP2' in the extracted text. Bidirectional port modelled as 1 send + 1 receive.",
  },
  {
    name: "t3d-002",
    title: "Cray T3D, bidirectional I/O ports per node pair (002 table 1)",
    table: T002,
    ts: 186,
    perByte: 0.043,
    link: LINK.t3d,
    extra: "Ports shared by a pair of nodes in hardware; modelled as 1 send + 1 receive per node.",
  },
  {
    name: "atm-002",
    title: "Workstations + ATM + FORE SBA-200 (002 table 1)",
    table: T002,
    ts: 240,
    perByte: 0.14,
    link: LINK.atm,
    extra: "Table gives '~240' us and 0.14 us/byte.",
  },
  {
    name: "myrinet-002",
    title: "Workstations + Myrinet + LANai (002 table 1)",
    table: T002,
    ts: 600,
    perByte: 0.08,
    link: LINK.myrinet,
    extra: "Table gives '~600' us and '~0.08' us/byte.",
  },
];

/**
 * The CM-5 on its fat-tree data network (000 section 3). The simulated machine uses t_d by cluster
 * level (fabric cm5-fat-tree); the flat cost model, which has one t_d, gets the slowest level, so
 * its cost bounds a lock-step replay on the fat tree from above.
 */
const CM5_FAT_TREE: MachineModel = {
  name: "cm5-fat-tree",
  title: "TMC CM-5 on its fat-tree data network (000 sec 3; start-up and copy cost of 004 table 1)",
  source:
    "Ranka, Shankar, Alsabti (paper 000), section 3: peak 20 MB/s within a cluster of 4, 10 MB/s within a cluster of 16, about 5 MB/s otherwise; " +
    `${T004}: CM5 start-up 85 us, 0.12 us/byte (t_c + t_d within a cluster of 4)`,
  ts: 85,
  tsSend: 85 / 2,
  tc: 0.12 - perByte(CM5_RATES.cluster4),
  td: perByte(CM5_RATES.other),
  tm: 0.12 - perByte(CM5_RATES.cluster4),
  ports: 1,
  barrier: 2 * 85,
  fabric: "cm5-fat-tree",
  notes:
    "Simulated with the cm5-fat-tree topology: t_d = 1/20, 1/10 or 1/5 us/byte by the smallest cluster (4, 16, all) holding both nodes. " +
    "t_c = 0.12 - 1/20 = 0.07 us/byte as for cm5-004 (004's measured 0.12 us/byte read as an in-cluster figure). " +
    "td = 1/5 us/byte (the slowest level) is what the flat cost model uses. t_m = t_c, tsSend = T_s / 2, barrier = 2 T_s (assumptions as for cm5-004).",
};

/*
 * Today's interconnects. alpha = T_s (one-way small-message latency), beta = t_c + t_d (1 / bandwidth).
 * t_d = 1 / nominal data rate per direction; t_c = 1 / measured bandwidth - t_d (the host side: PCIe,
 * DMA, protocol); where no measured bandwidth is cited, the HDR efficiency below is reused.
 * 1 GB/s = 1000 bytes/us.
 */
const GBs = (x: number): number => x * 1000;
/** Measured osu_bw at 4 MiB on ConnectX-6 HDR (openucx/ucx#8851): 21307 MB/s of 25000 MB/s nominal. */
const HDR_MEASURED_MBS = 21307.34;
const HDR_EFFICIENCY = HDR_MEASURED_MBS / GBs(25);
/** Single-thread memcpy rate assumed for the compose copy on today's CPU hosts (GB/s). */
const HOST_MEMCPY_GBS = 10;

const MODERN: readonly MachineModel[] = [
  {
    name: "ib-hdr-200",
    title: "InfiniBand HDR 200 Gb/s (NVIDIA ConnectX-6)",
    source:
      "alpha: ConnectX-6 VPI 'sub-600ns latency', https://docs.nvidia.com/networking/display/ConnectX6EN/Introduction and https://lenovopress.lenovo.com/lp1195; " +
      "beta: osu_bw 21307 MB/s at 4 MiB, ConnectX-6 HDR MCX653106A-HDAT, PCIe Gen4 x16, https://github.com/openucx/ucx/issues/8851",
    ts: 0.6,
    tsSend: 0.3,
    td: perByte(GBs(25)),
    tc: perByte(HDR_MEASURED_MBS) - perByte(GBs(25)),
    tm: perByte(GBs(HOST_MEMCPY_GBS)),
    ports: 1,
    barrier: 1.2,
    notes:
      "T_s = 0.6 us is the adapter's figure; an MPI library adds software start-up on top. t_d = 1 / 25 GB/s (200 Gb/s); " +
      "t_c = 1 / 21.307 GB/s - t_d. t_m = 1 / 10 GB/s (assumption: a single-thread memcpy on a current server core; no cited measurement). " +
      "tsSend = T_s / 2, barrier = 2 T_s (assumptions).",
  },
  {
    name: "ib-ndr-400",
    title: "InfiniBand NDR 400 Gb/s (NVIDIA ConnectX-7)",
    source:
      "400 Gb/s NDR port: NVIDIA ConnectX-7 user manual, https://docs.nvidia.com/networking/display/ConnectX7VPI/Introduction; " +
      "alpha and efficiency carried over from ib-hdr-200 (see notes)",
    ts: 0.6,
    tsSend: 0.3,
    td: perByte(GBs(50)),
    tc: perByte(GBs(50) * HDR_EFFICIENCY) - perByte(GBs(50)),
    tm: perByte(GBs(HOST_MEMCPY_GBS)),
    ports: 1,
    barrier: 1.2,
    notes:
      "Assumptions: the ConnectX-7 manual gives no latency, so T_s = 0.6 us as for ConnectX-6; no measured bandwidth was found, so " +
      "beta = t_d / 0.852 (the measured/nominal ratio of ib-hdr-200). t_d = 1 / 50 GB/s (400 Gb/s). t_m = 1 / 10 GB/s memcpy (assumption). " +
      "tsSend = T_s / 2, barrier = 2 T_s.",
  },
  {
    name: "roce-100g",
    title: "100 GbE RoCE v2 (NVIDIA ConnectX-5)",
    source:
      "alpha: ConnectX-5 RoCEv2 round trip '<2 microseconds', https://forums.developer.nvidia.com/t/connectx-5-roce-uc-receive-latency-anomaly/358441 " +
      "(adapter floor 'sub-600ns', ConnectX-5 EN product brief, https://manualmachine.com/mellanox/connectx5/8053735-user-manual); beta: 100 Gb/s line rate",
    ts: 1.0,
    tsSend: 0.5,
    td: perByte(GBs(12.5)),
    tc: perByte(GBs(12.5) * HDR_EFFICIENCY) - perByte(GBs(12.5)),
    tm: perByte(GBs(HOST_MEMCPY_GBS)),
    ports: 1,
    barrier: 2.0,
    notes:
      "T_s = 1.0 us: half of the '<2 us' measured round trip. t_d = 1 / 12.5 GB/s (100 Gb/s); beta = t_d / 0.852 (assumption: the HDR " +
      "measured/nominal ratio, no RoCE bandwidth measurement cited). t_m = 1 / 10 GB/s memcpy (assumption). tsSend = T_s / 2, barrier = 2 T_s.",
  },
  {
    name: "nvlink4-h100",
    title: "NVLink 4 through NVSwitch, 8x H100 SXM (HGX/DGX H100)",
    source:
      "beta: p2pBandwidthLatencyTest unidirectional P2P write ~376 GB/s between H100s on NVLink 4, https://github.com/NVIDIA/nccl/issues/1264 " +
      "(nominal 900 GB/s bidirectional = 18 links x 25 GB/s per direction); alpha: nccl-tests sendrecv '~3us' between 2 H100 on NVLink, " +
      "https://github.com/NVIDIA/nccl/issues/1487; t_m: HBM3 3.35 TB/s (H100 SXM)",
    ts: 3.0,
    tsSend: 1.5,
    td: perByte(GBs(450)),
    tc: perByte(GBs(376)) - perByte(GBs(450)),
    tm: 2 / GBs(3350),
    ports: 1,
    barrier: 6.0,
    notes:
      "T_s = 3 us is the NCCL send/recv latency (kernel launch and protocol), not the link's. t_d = 1 / 450 GB/s per direction; " +
      "t_c = 1 / 376 GB/s - t_d. t_m = 2 / 3350 GB/s: a device copy reads and writes every byte of HBM3 (assumption: full HBM bandwidth). " +
      "ports = 1 (assumption: a GPU's 18 links are used as one aggregated port). tsSend = T_s / 2, barrier = 2 T_s.",
  },
];

/** Every machine preset, old tables first (004, then 002), the CM-5 fat tree, then today's interconnects. */
export const MACHINES: readonly MachineModel[] = deepFreeze([
  ...OLD_004.map(oldMachine),
  ...OLD_002.map(oldMachine),
  CM5_FAT_TREE,
  ...MODERN,
]);

/** The preset named `name`; throws a CommplanError (BAD_OPTION) listing the known names otherwise. */
export function findMachine(name: string): MachineModel {
  const m = MACHINES.find((x) => x.name === name);
  if (m === undefined) {
    throw fail(
      "machines",
      "BAD_OPTION",
      `unknown machine '${name}'${didYouMean(
        name,
        MACHINES.map((x) => x.name),
      )}; known: ${MACHINES.map((x) => x.name).join(", ")}`,
      { field: "machine" },
    );
  }
  return m;
}
