/** Writers and readers of commplan's file formats. */
export * from "./schedule-json-write.js";
export * from "./schedule-json-read.js";
export * from "./step-grid.js";
export * from "./trace-chrome.js";
export * from "./svg-gantt.js";
