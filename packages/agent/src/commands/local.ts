import type { Command } from "commander";
import { readRawArgument } from "../cli/arguments";
import { commandDefiner, run } from "../cli/define-command";
import { createKit } from "../context";
import { checkFailed, usageError } from "../http/errors";
import { verifyWebhookSignature } from "../webhooks/verify-signature";

/** What runs on this machine: the offline signature check and the local MCP server. */
export function registerLocalCommands(program: Command) {
  const define = commandDefiner(program);

  define(
    "webhooks:verify",
    "Check a delivery's X-Service-Signature offline against SERVICE_WEBHOOK_SECRET (or the stored secret). Exit 0 valid, 1 invalid.",
    `crypto-checkout webhooks:verify --payload @body.json --signature 't=1700000000,v1=5f…'`,
  )
    .requiredOption("--payload <body>", "the raw request body exactly as received (inline, @file or -)")
    .requiredOption("--signature <header>", "the X-Service-Signature header value")
    .action(
      run<{ format: "text" | "json"; payload: string; signature: string }>(async (options, output, kit) => {
        const secret = kit.settings.webhookSecret ?? (await kit.readConfig()).webhook?.signingSecret;
        if (!secret) {
          throw usageError(
            "missing_webhook_secret",
            "Set SERVICE_WEBHOOK_SECRET to the endpoint's signing secret (or run webhooks:configure).",
          );
        }
        const check = verifyWebhookSignature({
          rawBody: await readRawArgument(options.payload),
          header: options.signature,
          secret,
        });
        if (!check.valid) throw checkFailed(check.reason, signatureProblems[check.reason]);
        return output.result({ object: "webhook_signature_check", valid: true, timestamp: check.timestamp }, [
          "Signature valid.",
        ]);
      }),
    );

  define(
    "mcp",
    "Run the local MCP server over stdio (same tools as the remote server, plus setup helpers).",
    "crypto-checkout mcp",
  ).action(async () => {
    const { serveMcpOverStdio } = await import("../mcp/serve-stdio");
    await serveMcpOverStdio(createKit());
  });
}

const signatureProblems = {
  malformed_header: "The signature header is not `t=<seconds>,v1=<hex>`.",
  timestamp_out_of_tolerance:
    "The signature's timestamp is more than 300 seconds from now (replayed or stale).",
  signature_mismatch: "The signature does not match this payload and secret (tampered, or another secret).",
} as const;
