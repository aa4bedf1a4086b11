/**
 * The process's streams as a command sees them: where it writes (replaceable in tests), a text sink for "-", and a
 * closed stdout pipe ending the run quietly. What main.ts needs before it knows the command, apart from cli/io.ts's
 * option parsing (which loads the matrix model).
 */
import { Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { fsErrorText } from "../io/file-output.js";

/** The streams a command writes to (replaceable in tests). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal (progress output). */
  readonly interactive: boolean;
  /** True when stdin is a terminal (a command reading '-' then says that it waits for it). */
  readonly stdinIsTerminal?: boolean;
  /** True when stdout is a terminal (a command writing its output there shows no progress bar beside it). */
  readonly stdoutIsTerminal?: boolean;
  /**
   * The terminal's width in columns when stdout is a terminal (tables wider than it are fitted to it); undefined when
   * stdout is piped or a file, where every table row stays one line.
   */
  readonly stdoutColumns?: number | undefined;
}

/** The process's own streams. */
export const processIo: CliIo = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  interactive: Boolean(process.stderr.isTTY),
  stdinIsTerminal: Boolean(process.stdin.isTTY),
  stdoutIsTerminal: Boolean(process.stdout.isTTY),
  // read when a table is printed: the terminal may have been resized since the start
  get stdoutColumns(): number | undefined {
    return process.stdout.isTTY ? process.stdout.columns : undefined;
  },
};

/**
 * A stream handing what is written to it to io.out, as text: what the writers send to "-" (JSON,
 * CSV, XML; binary formats are never written to stdout). UTF-8, a character split between two
 * writes kept whole.
 */
export function textSink(io: CliIo): Writable {
  const text = new StringDecoder("utf8");
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Uint8Array, _encoding, done) {
      io.out(
        typeof chunk === "string" ? chunk : text.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
      );
      done();
    },
  });
}

/**
 * Makes a closed stdout pipe (EPIPE, e.g. `commplan gen ... | head`) end the process quietly with
 * the exit code the command has set so far (0 unless a check already failed): the reader chose to
 * stop, which is not an error of the user. Any other stdout error is one line and exit 2.
 */
export function quietOnClosedStdout(exitCode: () => number): void {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(exitCode());
    process.stderr.write(`commplan: <stdout>: ${fsErrorText(e, true)}\n`);
    process.exit(2);
  });
}
