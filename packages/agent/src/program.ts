import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { addContractCommands, exitCodeHelp } from "./cli/define-command";
import { registerAuthCommands } from "./commands/auth";
import { type BrowserOpener, registerConnectCommands, systemBrowser } from "./commands/connect";
import { registerLocalCommands } from "./commands/local";
import { registerOrganizationCommands } from "./commands/organization";
import { registerPaylinkCommands } from "./commands/paylinks";
import { registerPaymentCommands } from "./commands/payments";
import { registerRefundCommands } from "./commands/refunds";
import { registerReportCommands } from "./commands/reports";
import { registerSettlementCommands } from "./commands/settlement";
import { registerSubscriptionCommands } from "./commands/subscriptions";
import { registerWebhookCommands } from "./commands/webhooks";
import { contracts } from "./contracts";
import { exitCodes, usageError } from "./http/errors";
import { formatFromArgv, Output } from "./output/output";

export type { BrowserOpener } from "./commands/connect";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/**
 * The CLI: each command group registers its commands, then every other operation's command is
 * derived from its contract (../contracts); the order here is the order of --help.
 */
export function buildProgram(browser: BrowserOpener = systemBrowser): Command {
  const program = new Command("crypto-checkout")
    .description("Crypto Checkout for coding agents: connect, create paylinks and payments, verify webhooks.")
    .version(version)
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", exitCodeHelp);

  registerConnectCommands(program, browser);
  registerAuthCommands(program);
  registerOrganizationCommands(program);
  registerSettlementCommands(program);
  registerWebhookCommands(program);
  registerPaylinkCommands(program);
  registerSubscriptionCommands(program);
  registerRefundCommands(program);
  registerReportCommands(program);
  registerPaymentCommands(program);
  addContractCommands(program, contracts);
  registerLocalCommands(program);
  return program;
}

/** Parses and runs; usage errors exit 2 and, with --format json, print the error envelope. */
export async function main(argv: string[]) {
  const format = formatFromArgv(argv);
  const program = buildProgram();
  program.exitOverride();
  for (const command of [program, ...program.commands]) {
    command.exitOverride();
    if (format === "json") command.configureOutput({ writeErr: () => {}, outputError: () => {} });
  }
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return;
    if (format === "json") {
      new Output("json").fail(
        usageError(snakeCase(error.code.replace(/^commander\./, "")), error.message.replace(/^error: /, "")),
      );
    }
    process.exitCode = exitCodes.usage;
  }
}

const snakeCase = (text: string) => text.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
