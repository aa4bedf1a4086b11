/** The refusal of a sub-command a command does not have (`store lst`, `help store bogus`), and of none given. */
import type { Command } from "commander";
import { didYouMean } from "../internal/did-you-mean.js";
import { quoted } from "../internal/quoted.js";
import { fail, type CommplanError } from "../model/errors.js";

/**
 * The one-line error of `parent` run with `word` where a sub-command's name must be (undefined: none given): the word,
 * the nearest sub-command when one is close, and every sub-command (`store: unknown sub-command 'lst' (did you mean
 * list?): add, get, list, verify or gc (try commplan store --help)`).
 */
export function subCommandError(parent: Command, word: string | undefined): CommplanError {
  const names = parent.commands.map((c) => c.name());
  const which = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
  const what =
    word === undefined ? "missing sub-command" : `unknown sub-command ${quoted(word)}${didYouMean(word, names)}`;
  return fail(parent.name(), "BAD_OPTION", `${what}: ${which} (try commplan ${parent.name()} --help)`);
}

/** True when `word` names a sub-command of `parent` (or is commander's `help`). */
export function isSubCommand(parent: Command, word: string): boolean {
  return word === "help" || parent.commands.some((c) => c.name() === word || c.aliases().includes(word));
}
