/** Machines: presets and the analytic flat cost model. */
export * from "./presets.js";
export * from "./cost-model.js";
export * from "./sim/index.js";
