import { type Command, Option } from "commander";
import { createKit, type Kit } from "../context";
import { type ExitCode, toKitError } from "../http/errors";
import { Output } from "../output/output";

export const exitCodeHelp = `
Exit codes: 0 ok, 1 a check failed (signature invalid, setup still pending), 2 usage error,
3 authentication (no or rejected credential), 4 service error (any other error answer).
With --format json every command prints exactly one JSON document on stdout, errors as
{"error": {"type", "code", "message", "param"?}, "requestId"?}.`;

type Handler<O> = (options: O, output: Output, kit: Kit) => Promise<ExitCode>;

/** `define(name, description, example)` adds a command to `program` with --format and an example in its help. */
export function commandDefiner(program: Command) {
  return (name: string, description: string, example: string): Command =>
    program
      .command(name)
      .description(description)
      .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
      .addHelpText("after", `\nExample:\n  $ ${example}\n${exitCodeHelp}`);
}

/** A command's action: the handler's exit code, or the error printed in the chosen format. */
export function run<O extends { format: "text" | "json" }>(handler: Handler<O>) {
  return async (options: O) => {
    const output = new Output(options.format);
    try {
      process.exitCode = await handler(options, output, createKit());
    } catch (error) {
      process.exitCode = output.fail(toKitError(error));
    }
  };
}
