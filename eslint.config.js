// ESLint (flat config): typescript-eslint's recommended rules, the import rules of the layout
// (docs/architecture.md) and no function over 120 lines; import cycles (type-only imports included)
// are checked by test/architecture.test.ts.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const FOLDERS = [
  "internal",
  "model",
  "host",
  "io",
  "patterns",
  "planner",
  "lower",
  "verifier",
  "machines",
  "topology",
  "bounds",
  "export",
  "experiments",
  "auto",
  "compare",
  "store",
  "testing",
  "entries",
  "cli",
];
/** Folders that may touch the file system (and ajv). */
const FS_FOLDERS = ["io", "store", "cli"];

/** A no-restricted-imports rule that lets files of `folder` import only `allowed` folders of src (and their own). */
function onlyImports(folder, allowed, why) {
  // src/host (the machine's memory, node:os) may be imported by every folder but the model; src/internal by every folder
  const banned = FOLDERS.filter((f) => f !== folder && f !== "host" && f !== "internal" && !allowed.includes(f));
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: banned.map((f) => `**/${f}/**`),
              message: `src/${folder} may import only ${[folder, ...allowed].join(", ")}: ${why}`,
            },
            ...(FS_FOLDERS.includes(folder)
              ? []
              : [
                  {
                    group: ["node:fs", "node:fs/*", "fs", "fs/*", "ajv", "ajv/*"],
                    message: "files are read and written in src/io, src/store and src/cli only",
                  },
                ]),
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "bench/results/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "max-lines-per-function": ["error", { max: 120, skipBlankLines: false, skipComments: false, IIFEs: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    files: ["src/model/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: FOLDERS.filter((f) => f !== "model" && f !== "internal").map((f) => `**/${f}/**`),
              message:
                "src/model may import only model and internal: the model is the shared vocabulary and imports nothing else from src",
            },
            { group: ["node:*"], message: "src/model uses no Node module: facts about the host come from src/host" },
            {
              group: ["node:fs", "node:fs/*", "fs", "fs/*", "ajv", "ajv/*"],
              message: "files are read and written in src/io, src/store and src/cli only",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/internal/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: FOLDERS.filter((f) => f !== "internal").map((f) => `**/${f}/**`),
              message: "src/internal holds dependency-free helpers: it imports nothing else from src",
            },
            { group: ["node:*", "fs", "fs/*", "ajv", "ajv/*"], message: "src/internal uses no Node module or package" },
          ],
        },
      ],
    },
  },
  onlyImports("host", ["model"], "facts about the machine commplan runs on (its memory), over the vocabulary"),
  onlyImports("io", ["model"], "file formats depend on the vocabulary only"),
  onlyImports("patterns", ["model"], "generators depend on the vocabulary only"),
  onlyImports("planner", ["model"], "planners depend on the vocabulary only"),
  onlyImports("lower", ["model"], "the lowering depends on the vocabulary only"),
  onlyImports("verifier", ["model"], "the verifier never imports the code it checks (planner, lowering)"),
  onlyImports("machines", ["model"], "the machine model depends on the vocabulary only"),
  onlyImports(
    "export",
    ["model", "io", "lower"],
    "exports turn schedules and programs into other forms, written through src/io",
  ),
  onlyImports("topology", ["model"], "networks (graphlib) compile to the routes of src/model/network.ts"),
  onlyImports("bounds", ["model"], "lower bounds are computed from the matrix and machine alone"),
  onlyImports("experiments", ["model", "patterns", "planner"], "reproductions of the papers' experiments"),
  onlyImports(
    "auto",
    ["model", "planner", "machines", "bounds", "lower"],
    "auto reads the planners' profiles, prices them and replays the finalists on the simulated machine (or, for a " +
      "runtime, their lowered programs)",
  ),
  onlyImports(
    "compare",
    ["model", "patterns", "planner", "machines", "topology", "bounds", "lower", "export", "auto"],
    "choosing a plan runs the planners and the simulated machine",
  ),
  onlyImports(
    "store",
    ["model", "io", "planner", "auto"],
    "the plan store keeps plans on disk (and auto's pick, planned by src/auto)",
  ),
  onlyImports(
    "testing",
    ["model", "io", "patterns", "planner", "lower", "verifier", "machines", "bounds"],
    "the testing kit wraps the generators and the verifier",
  ),
);
