/** A schedule or its realised timeline turned into something else: step grids, Chrome traces, SVG Gantt charts. */
export * from "./step-grid.js";
export * from "./trace-chrome.js";
export * from "./svg-gantt.js";
