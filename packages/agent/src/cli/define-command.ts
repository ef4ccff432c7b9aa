import { type Command, Option } from "commander";
import type { z } from "zod";
import { createKit, type Kit } from "../context";
import type { Contract } from "../contracts";
import { type ExitCode, toKitError, usageError } from "../http/errors";
import { request } from "../operations/merchant-api";
import { Output } from "../output/output";
import type { Json } from "./arguments";
import { addContractOptions, type CliContract, contractInput } from "./contract-options";
import { answerLines } from "./text-lines";

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

type Call = { input: Awaited<ReturnType<typeof contractInput>>; options: Json };

/** How a command differs from its operation's call: text lines of its own, or an action of its own. */
export type CommandAction<C extends CliContract> =
  | { lines(answer: z.output<C["result"]>, kit: Kit): string[] }
  | { action(call: Call, output: Output, kit: Kit): Promise<ExitCode> };

/**
 * The contract's command (its `cli`): name, description, example and flags from the contract.
 * It refuses without --confirm where the contract asks for it, then calls the operation with
 * the flags as its input and prints the answer (or runs the command's own action).
 */
export function contractCommand<C extends CliContract>(
  program: Command,
  contract: C,
  how: CommandAction<C> = { lines: (answer) => answerLines(answer) },
): Command {
  const { cli } = contract;
  const command = commandDefiner(program)(cli.command, cli.description, cli.example);
  return addContractOptions(command, contract).action(
    run<{ format: "text" | "json" } & Json>(async (options, output, kit) => {
      const input = await contractInput(contract, options);
      if (cli.confirm && !options.confirm) {
        throw usageError(
          "confirmation_required",
          `${cli.command} needs --confirm: ${cli.confirm}.`,
          "confirm",
        );
      }
      if ("action" in how) return how.action({ input, options }, output, kit);
      const answer = await request(kit, contract, input as never);
      return output.result(answer, how.lines(answer, kit));
    }),
  );
}

/** The command of each contract `program` has none for yet: a plain operation's, derived whole. */
export function addContractCommands(program: Command, contracts: readonly Contract[]) {
  const present = new Set(program.commands.map((command) => command.name()));
  for (const contract of contracts) {
    if (contract.cli && !present.has(contract.cli.command)) contractCommand(program, contract as CliContract);
  }
}
