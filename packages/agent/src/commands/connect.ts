import { type Command, InvalidArgumentError, Option } from "commander";
import open from "open";
import { commandDefiner, run } from "../cli/define-command";
import { line } from "../cli/text-lines";
import { approvalPageUrl } from "../config/base-url";
import { mayOpenBrowser } from "../config/settings";
import { startAgentSetup, waitForCheckin } from "../operations/agent-setup";

/** How the CLI reaches the person's browser; tests pass their own to see what would open. */
export type BrowserOpener = { mayOpen(): boolean; open(url: string): Promise<unknown> };

export const systemBrowser: BrowserOpener = {
  mayOpen: () => mayOpenBrowser(process.stdout.isTTY),
  open: (url) => open(url),
};

/** Browser setup: `setup` asks for the person's approval, `checkin` stores the credential it grants. */
export function registerConnectCommands(program: Command, browser: BrowserOpener) {
  const define = commandDefiner(program);

  define(
    "setup",
    "Start browser setup: prints (and on a terminal opens) a login URL where you approve this agent.",
    "crypto-checkout setup --agent my-shop-agent",
  )
    .requiredOption("--agent <name>", "a name for this agent, shown when you approve it")
    .addOption(
      new Option("--access <access>", "what the agent may do").choices(["read", "write"]).default("read"),
    )
    .option("--no-open", "print the login URL without opening a browser")
    .action(
      run<{ format: "text" | "json"; agent: string; access: "read" | "write"; open: boolean }>(
        async (options, output, kit) => {
          const started = await startAgentSetup(kit, { agentName: options.agent, access: options.access });
          // Only the approval page of the configured service, never a URL from the answer; the
          // printed URL is the fallback when no browser starts.
          if (options.open && browser.mayOpen()) {
            await browser.open(approvalPageUrl(kit.settings.apiBaseUrl)).catch(() => {});
          }
          return output.result(started, [
            line("Login URL", started.loginUrl),
            line("Code", started.userCode),
            line("Expires", started.expiresAt),
            "",
            started.next,
          ]);
        },
      ),
    );

  define(
    "checkin",
    "Finish browser setup: waits for your approval, then stores the agent credential (never printed).",
    "crypto-checkout checkin --agent my-shop-agent",
  )
    .requiredOption("--agent <name>", "the name given to setup")
    .option(
      "--timeout <seconds>",
      "how long to wait for the approval (0 = ask once)",
      (value) => {
        if (!/^\d+$/.test(value)) throw new InvalidArgumentError("must be a whole number of seconds");
        return Number(value);
      },
      600,
    )
    .action(
      run<{ format: "text" | "json"; agent: string; timeout: number }>(async (options, output, kit) => {
        const progress = output.progress("Waiting for approval in the browser…");
        const issued = await waitForCheckin(kit, options.agent, options.timeout);
        progress.done("Approved");
        return output.result(issued, [
          `Connected agent ${issued.agentName} to ${issued.organization.name} (${issued.access} access).`,
          line("Credential", `${issued.credentialId} (stored in ${issued.storedIn})`),
        ]);
      }),
    );
}
