import type { Command } from "commander";
import { readJsonArgument } from "../cli/arguments";
import { commandDefiner, run } from "../cli/define-command";
import { line } from "../cli/text-lines";
import * as api from "../operations/merchant-api";

/** The organization's own settings (its settlement wallets are `settlement:configure`). */
export function registerOrganizationCommands(program: Command) {
  const define = commandDefiner(program);

  define(
    "organization:update",
    "Change the organization (name, settlementWallets, webhookUrl, brandDisplayName, brandColor, logo): what is sent changes.",
    `crypto-checkout organization:update --json '{"name":"My shop","brandColor":"#1d4ed8"}'`,
  )
    .requiredOption("--json <json>", "the changes as a JSON object (inline, @file or -)")
    .action(
      run<{ format: "text" | "json"; json: string }>(async (options, output, kit) => {
        const organization = await api.updateOrganization(kit, await readJsonArgument(options.json));
        return output.result(organization, [line("Updated", `${organization.name} (${organization.id})`)]);
      }),
    );
}
