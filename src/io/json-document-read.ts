/**
 * A small JSON document of its own format read whole, as every whole-document reader reads one: at most `limit` bytes
 * (readBounded: a FIFO or a device such as /dev/zero is refused once past it), its encoding, syntax and keys checked
 * (jsonDocumentText), every problem one line of `module` naming the file.
 */
import { fail } from "../model/errors.js";
import { readBounded } from "./bounded-read.js";
import { fsError } from "./file-output.js";
import { jsonDocumentText } from "./json-text.js";

/** The parsed value of `file` ("-": standard input); `what` names the document in the refusal past `limit` bytes. */
export function readJsonDocument(file: string, limit: number, module: string, what: string): unknown {
  let text: string;
  try {
    const bytes = readBounded(file, limit, () => {
      throw fail(module, "BAD_INPUT", `more than the ${limit} bytes ${what} may have`, { file });
    });
    text = jsonDocumentText(bytes, module, file);
  } catch (e) {
    throw fsError(e, module, file, false);
  }
  return JSON.parse(text) as unknown;
}
