import { createSpinner, type Spinner } from "nanospinner";
import { type ExitCode, exitCodes, type KitError } from "../http/errors";

export type Format = "text" | "json";

type Stream = { write(text: string): unknown; isTTY?: boolean };
export type Streams = { stdout: Stream; stderr: Stream };

export type Progress = { update(text: string): void; done(text?: string): void };

/**
 * Where a command's answer goes. Text mode: readable lines, a spinner on a terminal only.
 * JSON mode (`--format json`): exactly one JSON document on stdout, errors included, as the
 * service's error envelope, and nothing else on either stream.
 */
export class Output {
  private written = false;
  private spinner: Spinner | undefined;

  constructor(
    readonly format: Format,
    private readonly streams: Streams = { stdout: process.stdout, stderr: process.stderr },
  ) {}

  /** A spinner while something slow runs; silent unless a person watches a terminal. */
  progress(text: string): Progress {
    if (this.format === "json" || !this.streams.stderr.isTTY) return { update() {}, done() {} };
    const spinner = createSpinner(text, { stream: this.streams.stderr as NodeJS.WriteStream }).start();
    this.spinner = spinner;
    return {
      update: (next) => spinner.update({ text: next }),
      done: (final) => spinner.success({ text: final ?? text }),
    };
  }

  /** A note for people (text mode only, on stderr so stdout stays the answer). */
  note(text: string) {
    if (this.format === "text") this.streams.stderr.write(`${terminalText(text)}\n`);
  }

  result(value: unknown, lines: string[]): ExitCode {
    this.once();
    if (this.spinner?.isSpinning()) this.spinner.success();
    this.streams.stdout.write(
      this.format === "json" ? `${terminalJson(value)}\n` : `${lines.map(terminalText).join("\n")}\n`,
    );
    return exitCodes.ok;
  }

  fail(error: KitError): ExitCode {
    this.once();
    if (this.spinner?.isSpinning()) this.spinner.error();
    if (this.format === "json") {
      this.streams.stdout.write(`${terminalJson(error.envelope)}\n`);
    } else {
      const { code, message, param } = error.envelope.error;
      const where = param ? ` (${param})` : "";
      const requestId = error.envelope.requestId ? ` [request ${error.envelope.requestId}]` : "";
      this.streams.stderr.write(terminalText(`Error ${code}${where}: ${message}${requestId}\n`));
    }
    return error.exitCode;
  }

  private once() {
    if (this.written) throw new Error("a command answers once");
    this.written = true;
  }
}

// What a terminal would act on rather than show: ANSI escape sequences (CSI, OSC such as
// hyperlinks and window titles, other ESC pairs, and their 8-bit C1 forms), the remaining C0
// and C1 controls and DEL (carriage return and backspace overwrite what was printed), and the
// bidirectional overrides and isolates that reorder what a line seems to say.
const escapeSequence =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controlCharacter = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const bidiControl = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Server text made safe to print: newline and tab stay (answers span lines), no other control. */
export function terminalText(text: string): string {
  return text.replace(escapeSequence, "").replace(controlCharacter, "").replace(bidiControl, "");
}

/**
 * The exact JSON document, written so no terminal acts on it: JSON.stringify already escapes
 * C0 controls (ESC included) as \uXXXX; DEL, C1 and bidi controls get the same escape here,
 * which every JSON parser reads back as the very same string.
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    new RegExp(`[\\u007f-\\u009f]|${bidiControl.source}`, "g"),
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `--format` as written anywhere on the command line, known before the parser runs. */
export function formatFromArgv(argv: string[]): Format {
  const index = argv.findIndex((arg) => arg === "--format" || arg.startsWith("--format="));
  if (index === -1) return "text";
  const value = argv[index].includes("=") ? argv[index].split("=")[1] : argv[index + 1];
  return value === "json" ? "json" : "text";
}
