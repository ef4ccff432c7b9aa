import { type Command, Option } from "commander";
import { commandDefiner, contractCommand, run } from "../cli/define-command";
import { line } from "../cli/text-lines";
import { retrieveOrganization } from "../contracts";
import { registerAgent } from "../operations/agent-register";
import * as api from "../operations/merchant-api";

/** The account: signing up a new one for this agent, and which one this machine is connected to. */
export function registerAuthCommands(program: Command) {
  const define = commandDefiner(program);

  define(
    "auth:agent-register",
    "Sign up a new account for this agent. The first call mails a confirmation link; run the same command again after it was opened to store the credential.",
    "crypto-checkout auth:agent-register --email you@example.com --project-name 'My shop' --agent-name my-shop-agent --integration-intent accept_payments",
  )
    .requiredOption("--email <email>", "the owner's email address (must be new)")
    .requiredOption("--project-name <name>", "the name of the new organization")
    .requiredOption("--agent-name <name>", "a name for this agent")
    .addOption(
      new Option("--integration-intent <intent>", "what the integration does")
        .choices(["accept_payments"])
        .makeOptionMandatory(),
    )
    .option("--ref <ref>", "referral or campaign reference")
    .action(
      run<{
        format: "text" | "json";
        email: string;
        projectName: string;
        agentName: string;
        integrationIntent: "accept_payments";
        ref?: string;
      }>(async (options, output, kit) => {
        const result = await registerAgent(kit, {
          email: options.email,
          projectName: options.projectName,
          agentName: options.agentName,
          integrationIntent: options.integrationIntent,
          ...(options.ref ? { ref: options.ref } : {}),
        });
        if ("credentialId" in result) {
          return output.result(result, [
            `Registered and connected agent ${result.agentName} to ${result.organization.name}.`,
            line("Credential", `${result.credentialId} (stored in ${result.storedIn})`),
          ]);
        }
        return output.result(result, [
          line("Status", result.status),
          ...(result.pairingCode ? [line("Pairing code", result.pairingCode)] : []),
          "",
          result.next,
        ]);
      }),
    );

  contractCommand(program, retrieveOrganization, {
    action: async (_call, output, kit) => {
      const status = await api.authStatus(kit);
      return output.result(status, [
        line("Connected to", `${status.organization.name} (${status.organization.id})`),
        line("Service", status.apiBaseUrl),
        line(
          "Credential",
          status.credential.kind === "agent"
            ? `agent ${status.credential.agentName} (${status.credential.access} access)`
            : "SERVICE_API_KEY",
        ),
      ]);
    },
  });
}
