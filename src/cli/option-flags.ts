/** Library messages as the command line says them: an option a library error names becomes the flag. */

/** The library's wordings that name an option, and the command line's wording of each (its flags). */
const FLAG_WORDINGS: readonly (readonly [RegExp, string])[] = [
  [/raise it with the option maxMemory \(bytes\), e\.g\. (\w+)/g, "raise it with --max-memory, e.g. --max-memory $1"],
  [/\(raise it with the option maxMemory\)/g, "(raise it with --max-memory or maxMemory)"],
  [/ it takes no input sparse\b/g, " it takes no --file"],
  [/ needs a sparse matrix: input sparse, a Matrix Market structure/g, " needs a sparse matrix: --file path.mtx"],
  [/ write the program split by rank \(writeProgramSplit\)/g, " write the program with --split"],
  [/ relays elements: plan with the option payload /g, " relays elements: plan with --payload "],
];

/** A library message with each option it names written as the command line's flag. */
export function cliMessage(message: string): string {
  let text = message;
  for (const [wording, flag] of FLAG_WORDINGS) text = text.replace(wording, flag);
  return text;
}
