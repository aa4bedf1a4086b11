/** Library messages as the command line says them: an option a library error names becomes the flag. */

/** The library's wordings that name an option (a phrase, or a pattern), and the command line's wording of each. */
const FLAG_WORDINGS: readonly (readonly [string | RegExp, string])[] = [
  // memory, patterns and program files
  [/raise it with the option maxMemory \(bytes\), e\.g\. (\w+)/g, "raise it with --max-memory, e.g. --max-memory $1"],
  ["no value of the option maxMemory can hold it", "no --max-memory can hold it"],
  [/ it takes no input sparse\b/g, " it takes no --file"],
  [" needs a sparse matrix: input sparse, a Matrix Market structure", " needs a sparse matrix: --file path.mtx"],
  [" write the program split by rank (writeProgramSplit)", " write the program with --split"],
  // payloads: the planners, the lowering, data mode and the verifier's report
  ["plan at message level (without the option payload)", "plan at message level (without --payload)"],
  ["plan with the option payload", "plan with --payload"],
  // the simulated machine and the protocols
  ["run without a timeline (timeline: false)", "run without a timeline (timeline: false, no --trace / --svg)"],
  [
    "give a payload plan (the option payload) or sendWaits steps",
    "give a payload plan (plan --payload) or sendWaits steps (--send-waits steps)",
  ],
  ["use it with lockstep (lockstep: true)", "use it with lockstep (--lockstep)"],
  ["stageBarriers false needs a free run", "--no-stage-barriers needs a free run (no --lockstep)"],
  ["recvOrder 'step' does not apply", "--recv-order step does not apply"],
  [/\bgot ports (\d+)$/, "got --ports $1"],
  ["lost in rounding); use a larger inquiry", "lost in rounding); use a larger --inquiry"],
  ["use a larger inquiry or set busyMeasure", "use a larger --inquiry or --busy-measure"],
  // exports and the step grid
  [
    /\bformat ([\w-]+) writes several files: give a directory \(dir\)/g,
    "--format $1 writes several files: give --out DIR",
  ],
  [
    /\bformat ([\w-]+) writes one file: give a file \(output, "-" for stdout\), not a directory \(dir or split\)/g,
    "--format $1 writes one file: give -o FILE (or nothing for stdout), not --out or --split",
  ],
  [
    'format program writes one file (output, "-" for stdout) or one per rank (split), not a directory (dir)',
    "--format program writes one file (-o FILE, or nothing for stdout) or one per rank (--split DIR), not --out",
  ],
  ["format simgrid needs a machine (", "--format simgrid needs --machine ("],
  [/\bthe option (\w+) goes with format /g, "--$1 goes with --format "],
  ["; the option chunk sets a larger chunk)", "; --chunk sets a larger chunk)"],
  [/\bthe (row|stage) option must be in /g, "--$1 must be in "],
  [": choose another directory (dir)", ": choose another --out directory"],
  // the plan store
  ["store: auto needs the option machine (", "store: --algorithm auto needs --machine ("],
  [
    "store: auto chooses the parameters itself: give none",
    "store: --algorithm auto chooses the parameters itself; drop --param",
  ],
  // a directory that is not a store yet: the commands that make one
  ["; openPlanStore(dir, true) makes one)", "; 'commplan store add' or 'commplan precompute --store' makes one)"],
  // compare
  [/^compare: sweep: /, "compare: --sweep: "],
  ["the option network replaces the machine's topology", "--network replaces the machine's topology"],
];

/** A library message with each option it names written as the command line's flag. */
export function cliMessage(message: string): string {
  let text = message;
  for (const [wording, flag] of FLAG_WORDINGS)
    text = typeof wording === "string" ? text.split(wording).join(flag) : text.replace(wording, flag);
  return text;
}
