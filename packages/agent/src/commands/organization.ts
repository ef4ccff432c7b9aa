import type { Command } from "commander";
import { contractCommand } from "../cli/define-command";
import { line } from "../cli/text-lines";
import { updateOrganization } from "../contracts";

/** The organization's own settings (its settlement wallets are `settlement:configure`). */
export function registerOrganizationCommands(program: Command) {
  contractCommand(program, updateOrganization, {
    lines: (organization) => [line("Updated", `${organization.name} (${organization.id})`)],
  });
}
