import { type Command, Option } from "commander";
import { commandDefiner, run } from "../cli/define-command";
import { line } from "../cli/text-lines";
import * as api from "../operations/merchant-api";

/** The webhook endpoint on the service (checking a delivery's signature is `webhooks:verify`, local). */
export function registerWebhookCommands(program: Command) {
  const define = commandDefiner(program);

  define(
    "webhooks:configure",
    "Create (or update) the webhook endpoint; its signing secret is stored for webhooks:verify, never printed.",
    "crypto-checkout webhooks:configure --url https://shop.example.com/webhooks --adapter NONE",
  )
    .requiredOption("--url <url>", "the receiver's URL")
    .addOption(new Option("--adapter <adapter>", "payload shape").choices(["NONE", "STRIPE"]).default("NONE"))
    .option("--name <name>", "a label for the endpoint")
    .action(
      run<{ format: "text" | "json"; url: string; adapter: "NONE" | "STRIPE"; name?: string }>(
        async (options, output, kit) => {
          const result = await api.configureWebhook(kit, options);
          return output.result(result, [
            line(
              result.action === "created" ? "Created" : "Updated",
              `${result.endpoint.id} → ${result.endpoint.url}`,
            ),
            line("Signing secret", "stored in config.json (used by webhooks:verify)"),
          ]);
        },
      ),
    );
}
