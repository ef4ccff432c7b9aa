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
    if (this.format === "text") this.streams.stderr.write(`${text}\n`);
  }

  result(value: unknown, lines: string[]): ExitCode {
    this.once();
    if (this.spinner?.isSpinning()) this.spinner.success();
    this.streams.stdout.write(
      this.format === "json" ? `${JSON.stringify(value, null, 2)}\n` : `${lines.join("\n")}\n`,
    );
    return exitCodes.ok;
  }

  fail(error: KitError): ExitCode {
    this.once();
    if (this.spinner?.isSpinning()) this.spinner.error();
    if (this.format === "json") {
      this.streams.stdout.write(`${JSON.stringify(error.envelope, null, 2)}\n`);
    } else {
      const { code, message, param } = error.envelope.error;
      const where = param ? ` (${param})` : "";
      const requestId = error.envelope.requestId ? ` [request ${error.envelope.requestId}]` : "";
      this.streams.stderr.write(`Error ${code}${where}: ${message}${requestId}\n`);
    }
    return error.exitCode;
  }

  private once() {
    if (this.written) throw new Error("a command answers once");
    this.written = true;
  }
}

/** `--format` as written anywhere on the command line, known before the parser runs. */
export function formatFromArgv(argv: string[]): Format {
  const index = argv.findIndex((arg) => arg === "--format" || arg.startsWith("--format="));
  if (index === -1) return "text";
  const value = argv[index].includes("=") ? argv[index].split("=")[1] : argv[index + 1];
  return value === "json" ? "json" : "text";
}
