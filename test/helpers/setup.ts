/** Test setup: in CI fast-check runs with a fixed seed so a run is reproducible; locally it explores new seeds. */
import fc from "fast-check";

if (process.env["CI"]) fc.configureGlobal({ seed: 20261122 });
