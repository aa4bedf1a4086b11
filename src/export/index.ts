/**
 * A schedule, its realised timeline or its lowered program turned into something else: the export registry and its
 * formats' writers, step grids, Chrome traces, SVG charts, SimGrid, GOAL and MSCCL-IR.
 */
export * from "./types.js";
export * from "./registry.js";
export * from "./export-target.js";
export * from "./step-grid.js";
export * from "./trace-chrome.js";
export * from "./svg-gantt.js";
export * from "./svg-link-load.js";
export * from "./simgrid-trace.js";
export * from "./simgrid-platform.js";
export * from "./simgrid-topology-platform.js";
export * from "./goal.js";
export * from "./msccl-xml.js";
export * from "./options.js";
export * from "./xml-escape.js";
