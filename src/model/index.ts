/** The shared vocabulary of commplan. */
export * from "./errors.js";
export * from "./rng.js";
export * from "./matrix.js";
export * from "./matrix-stats.js";
export * from "./schedule.js";
export * from "./machine.js";
export * from "../internal/growable.js";
export * from "./timeline.js";
export * from "./network.js";
export * from "./matrix-digest.js";
