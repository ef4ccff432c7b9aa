import type { Command } from "commander";
import { contractCommand } from "../cli/define-command";
import { line } from "../cli/text-lines";
import { createWebhookEndpoint } from "../contracts";
import * as api from "../operations/merchant-api";

/** The webhook endpoint on the service (checking a delivery's signature is `webhooks:verify`, local). */
export function registerWebhookCommands(program: Command) {
  contractCommand(program, createWebhookEndpoint, {
    action: async ({ input }, output, kit) => {
      const { url, adapter, name } = input.body as {
        url: string;
        adapter?: "NONE" | "STRIPE";
        name?: string;
      };
      const result = await api.configureWebhook(kit, { url, adapter: adapter ?? "NONE", name });
      return output.result(result, [
        line(
          result.action === "created" ? "Created" : "Updated",
          `${result.endpoint.id} → ${result.endpoint.url}`,
        ),
        line("Signing secret", "stored in config.json (used by webhooks:verify)"),
      ]);
    },
  });
}
