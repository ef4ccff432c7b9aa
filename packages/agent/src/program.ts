import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import open from "open";
import { approvalPageUrl } from "./config/base-url";
import { mayOpenBrowser } from "./config/settings";
import { createKit, type Kit } from "./context";
import { checkFailed, type ExitCode, exitCodes, toKitError, usageError } from "./http/errors";
import { registerAgent } from "./operations/agent-register";
import { startAgentSetup, waitForCheckin } from "./operations/agent-setup";
import * as api from "./operations/merchant-api";
import { formatFromArgv, Output } from "./output/output";
import { sweepObject } from "./shapes";
import { verifyWebhookSignature } from "./webhooks/verify-signature";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

type Json = Record<string, unknown>;

const exitCodeHelp = `
Exit codes: 0 ok, 1 a check failed (signature invalid, setup still pending), 2 usage error,
3 authentication (no or rejected credential), 4 service error (any other error answer).
With --format json every command prints exactly one JSON document on stdout, errors as
{"error": {"type", "code", "message", "param"?}, "requestId"?}.`;

/** `--json` values: inline JSON, `@file` or `-` for stdin. */
async function readJsonArgument(value: string, param = "json"): Promise<Json> {
  const text =
    value === "-"
      ? await readStdin()
      : value.startsWith("@")
        ? await readFile(value.slice(1), "utf8")
        : value;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Json;
  } catch {
    // reported below
  }
  throw usageError("invalid_json", `--${param} must be a JSON object (inline, @file or - for stdin)`, param);
}

/** Raw text exactly as given: inline, `@file` or `-` for stdin (a webhook body must stay byte-exact). */
async function readRawArgument(value: string): Promise<string> {
  if (value === "-") return readStdin();
  return value.startsWith("@") ? readFile(value.slice(1), "utf8") : value;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function wholeNumber(max: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      throw new InvalidArgumentError(`must be a whole number from 1 to ${max}`);
    }
    return Number(value);
  };
}

/** How the CLI reaches the person's browser; tests pass their own to see what would open. */
export type BrowserOpener = { mayOpen(): boolean; open(url: string): Promise<unknown> };

const systemBrowser: BrowserOpener = {
  mayOpen: () => mayOpenBrowser(process.stdout.isTTY),
  open: (url) => open(url),
};

function line(label: string, value: unknown) {
  return `${`${label}:`.padEnd(16)} ${value ?? "-"}`;
}

type Handler<O> = (options: O, output: Output, kit: Kit) => Promise<ExitCode>;

export function buildProgram(browser: BrowserOpener = systemBrowser): Command {
  const program = new Command("crypto-checkout")
    .description("Crypto Checkout for coding agents: connect, create paylinks and payments, verify webhooks.")
    .version(version)
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", exitCodeHelp);

  function define(name: string, description: string, example: string) {
    return program
      .command(name)
      .description(description)
      .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
      .addHelpText("after", `\nExample:\n  $ ${example}\n${exitCodeHelp}`);
  }

  function run<O extends { format: "text" | "json" }>(handler: Handler<O>) {
    return async (options: O) => {
      const output = new Output(options.format);
      try {
        process.exitCode = await handler(options, output, createKit());
      } catch (error) {
        process.exitCode = output.fail(toKitError(error));
      }
    };
  }

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

  define(
    "auth:status",
    "Show whether this machine is connected, and to which organization (the proof of connection).",
    "crypto-checkout auth:status --format json",
  ).action(
    run(async (_options, output, kit) => {
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
    }),
  );

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

  define(
    "settlement:configure",
    "Set the settlement wallets payments are swept to. Routes money: needs --confirm.",
    `crypto-checkout settlement:configure --json '{"settlementWallets":[{"network":"base","address":"0x…"}]}' --confirm`,
  )
    .requiredOption("--json <json>", "{ settlementWallets: [{ network, address }] } (inline, @file or -)")
    .option("--confirm", "confirm that payments go to these wallets from now on")
    .action(
      run<{ format: "text" | "json"; json: string; confirm?: boolean }>(async (options, output, kit) => {
        const body = await readJsonArgument(options.json);
        if (!options.confirm) {
          throw usageError("confirmation_required", "Changing where money goes needs --confirm.", "confirm");
        }
        const organization = await api.updateOrganization(kit, { settlementWallets: body.settlementWallets });
        const wallets =
          (organization.settlementWallets as { network: string; address: string }[] | undefined) ?? [];
        // A change is in force only once an owner confirmed it and its delay is over.
        const pending =
          (organization.pendingSettlementWallets as
            | { network: string; address: string | null; status: string; effectiveAt: string | null }[]
            | undefined) ?? [];
        return output.result(organization, [
          ...wallets.map((wallet) => line(wallet.network, wallet.address)),
          ...pending.map((change) =>
            line(
              `${change.network} (${change.status})`,
              `${change.address ?? "no wallet"}, ${
                change.effectiveAt
                  ? `from ${change.effectiveAt}`
                  : "once an owner confirms it in the dashboard"
              }`,
            ),
          ),
        ]);
      }),
    );

  define(
    "settlement:sweeps",
    "List sweeps of confirmed payments to the settlement wallets, newest first; filter by status or network.",
    "crypto-checkout settlement:sweeps --status FAILED",
  )
    .addOption(
      new Option("--status <status>", "only sweeps in this status").choices(sweepObject.shape.status.options),
    )
    .option("--network <network>", "only sweeps on this network id")
    .option("--page <page>", "page number, from 1", wholeNumber(1_000_000))
    .option("--rows <rows>", "rows per page, 1 to 100", wholeNumber(100))
    .action(
      run<{ format: "text" | "json"; status?: string; network?: string; page?: number; rows?: number }>(
        async (options, output, kit) => {
          const page = await api.listSweeps(kit, {
            status: options.status,
            network: options.network,
            page: options.page,
            rows: options.rows,
          });
          return output.result(
            page,
            pageLines(
              page,
              (sweep) =>
                `${sweep.id}  ${sweep.status}  ${sweep.amount} ${sweep.token} on ${sweep.network}  ${sweep.fromAddress} → ${sweep.toAddress}${sweep.failureReason ? `  (${sweep.failureReason})` : ""}`,
            ),
          );
        },
      ),
    );

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

  define(
    "paylinks:create",
    "Create a paylink: a reusable fixed-price payment page.",
    `crypto-checkout paylinks:create --json '{"name":"T-shirt","amount":"25.00","currency":"USD"}'`,
  )
    .requiredOption(
      "--json <json>",
      "{ name, amount, currency, description?, enabled? } (inline, @file or -)",
    )
    .action(
      run<{ format: "text" | "json"; json: string }>(async (options, output, kit) => {
        const paylink = await api.createPaylink(kit, await readJsonArgument(options.json));
        return output.result(paylink, paylinkLines(kit, paylink));
      }),
    );

  define("paylinks:list", "List paylinks, newest first.", "crypto-checkout paylinks:list --page 1 --rows 20")
    .option("--page <page>", "page number, from 1", wholeNumber(1_000_000))
    .option("--rows <rows>", "rows per page, 1 to 100", wholeNumber(100))
    .action(
      run<{ format: "text" | "json"; page?: number; rows?: number }>(async (options, output, kit) => {
        const page = await api.listPaylinks(kit, { page: options.page, rows: options.rows });
        return output.result(
          page,
          pageLines(
            page,
            (paylink) =>
              `${paylink.id}  ${paylink.amount} ${paylink.currency}  ${paylink.enabled ? "enabled " : "disabled"}  ${paylink.name}`,
          ),
        );
      }),
    );

  define("paylinks:get", "Show one paylink.", "crypto-checkout paylinks:get --id 0b6f…")
    .requiredOption("--id <id>", "the paylink id (a UUID)")
    .action(
      run<{ format: "text" | "json"; id: string }>(async (options, output, kit) => {
        const paylink = await api.getPaylink(kit, options.id);
        return output.result(paylink, paylinkLines(kit, paylink));
      }),
    );

  define(
    "paylinks:disable",
    "Disable a paylink: its page stops taking payments. Needs --confirm.",
    "crypto-checkout paylinks:disable --id 0b6f… --confirm",
  )
    .requiredOption("--id <id>", "the paylink id (a UUID)")
    .option("--confirm", "confirm that buyers can no longer pay through this paylink")
    .action(
      run<{ format: "text" | "json"; id: string; confirm?: boolean }>(async (options, output, kit) => {
        if (!options.confirm) {
          throw usageError("confirmation_required", "Disabling a paylink needs --confirm.", "confirm");
        }
        const paylink = await api.disablePaylink(kit, options.id);
        return output.result(paylink, paylinkLines(kit, paylink));
      }),
    );

  define(
    "subscriptions:list",
    "List subscriptions, newest first; filter by status or customer.",
    "crypto-checkout subscriptions:list --status PAST_DUE",
  )
    .option("--status <status>", "ACTIVE, PAST_DUE or CANCELLED")
    .option("--customer <customer>", "customer email or clientReferenceId")
    .option("--page <page>", "page number, from 1", wholeNumber(1_000_000))
    .option("--rows <rows>", "rows per page, 1 to 100", wholeNumber(100))
    .action(
      run<{ format: "text" | "json"; status?: string; customer?: string; page?: number; rows?: number }>(
        async (options, output, kit) => {
          const page = await api.listSubscriptions(kit, {
            status: options.status,
            customer: options.customer,
            page: options.page,
            rows: options.rows,
          });
          return output.result(page, pageLines(page, subscriptionLine));
        },
      ),
    );

  define(
    "subscriptions:get",
    "Show one subscription with its invoices.",
    "crypto-checkout subscriptions:get --id sub_…",
  )
    .requiredOption("--id <id>", "the subscription id (sub_…)")
    .action(
      run<{ format: "text" | "json"; id: string }>(async (options, output, kit) => {
        const subscription = await api.getSubscription(kit, options.id);
        return output.result(subscription, subscriptionLines(subscription));
      }),
    );

  define(
    "subscriptions:cancel",
    "Cancel a subscription now, or at the end of the paid period with --at-period-end. Needs --confirm.",
    "crypto-checkout subscriptions:cancel --id sub_… --at-period-end --confirm",
  )
    .requiredOption("--id <id>", "the subscription id (sub_…)")
    .option("--at-period-end", "keep the paid period; cancel when it ends")
    .option("--confirm", "confirm that no further renewals are issued")
    .action(
      run<{ format: "text" | "json"; id: string; atPeriodEnd?: boolean; confirm?: boolean }>(
        async (options, output, kit) => {
          if (!options.confirm) {
            throw usageError(
              "confirmation_required",
              "Cancelling a subscription needs --confirm.",
              "confirm",
            );
          }
          const subscription = await api.cancelSubscription(kit, options.id, options.atPeriodEnd === true);
          return output.result(subscription, subscriptionLines(subscription));
        },
      ),
    );

  define(
    "payments:create",
    "Create a checkout session (a one-off payment) and print the URL to send the buyer to.",
    `crypto-checkout payments:create --json '{"amount":"25.00","currency":"USD","successUrl":"https://shop.example.com/thanks"}'`,
  )
    .requiredOption("--json <json>", "the checkout session request (inline, @file or -)")
    .option("--idempotency-key <key>", "16 to 200 characters; generated when absent")
    .action(
      run<{ format: "text" | "json"; json: string; idempotencyKey?: string }>(
        async (options, output, kit) => {
          const session = await api.createCheckoutSession(
            kit,
            await readJsonArgument(options.json),
            options.idempotencyKey,
          );
          return output.result(session, [
            line("Session", session.id),
            line("Status", session.status),
            line("Pay at", payUrl(kit, session)),
            line("Idempotency-Key", session.idempotencyKey),
          ]);
        },
      ),
    );

  define(
    "payments:status",
    "Show a payment's status: a checkout session (ycs_…) or a payment request (inv_…).",
    "crypto-checkout payments:status --id ycs_…",
  )
    .requiredOption("--id <id>", "a checkout session id (ycs_…) or payment id (inv_…)")
    .action(
      run<{ format: "text" | "json"; id: string }>(async (options, output, kit) => {
        const status = await api.paymentStatus(kit, options.id);
        const payment = status.payment as Json | undefined;
        return output.result(status, [
          line(status.object === "payment_request" ? "Payment" : "Session", `${status.id} ${status.status}`),
          ...(payment ? [line("Payment", `${payment.invoiceId ?? payment.id ?? ""} ${payment.status}`)] : []),
        ]);
      }),
    );

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
    const { serveMcpOverStdio } = await import("./mcp/serve-stdio");
    await serveMcpOverStdio(createKit());
  });

  return program;
}

const signatureProblems = {
  malformed_header: "The signature header is not `t=<seconds>,v1=<hex>`.",
  timestamp_out_of_tolerance:
    "The signature's timestamp is more than 300 seconds from now (replayed or stale).",
  signature_mismatch: "The signature does not match this payload and secret (tampered, or another secret).",
} as const;

/** The hosted pay address of a session or paylink: the service's, else `{pay_url}/{id}`. */
function payUrl(kit: Kit, object: Json) {
  return object.url ?? (kit.settings.payBaseUrl ? `${kit.settings.payBaseUrl}/${object.id}` : undefined);
}

/** A list page in text mode: a line a row, then where the page stands. */
function pageLines(page: Json, rowLine: (row: Json) => string) {
  const rows = page.data as Json[];
  return [...rows.map(rowLine), `${rows.length} of ${page.total} (page ${page.page})`];
}

function subscriptionLine(subscription: Json) {
  const every = `${subscription.intervalCount} ${subscription.interval}`;
  return `${subscription.id}  ${subscription.status}  ${subscription.amount} ${subscription.currency} / ${every}  until ${subscription.currentPeriodEnd}`;
}

function subscriptionLines(subscription: Json) {
  const invoices = (subscription.invoices as Json[] | undefined) ?? [];
  return [
    subscriptionLine(subscription),
    ...(subscription.cancelAtPeriodEnd ? [line("Cancels", `at ${subscription.currentPeriodEnd}`)] : []),
    ...(subscription.cancellationReason ? [line("Cancelled", subscription.cancellationReason)] : []),
    ...invoices.map(
      (invoice) =>
        `  period ${invoice.periodIndex}  ${invoice.periodStart} → ${invoice.periodEnd}  ${invoice.status}  ${invoice.url}`,
    ),
  ];
}

function paylinkLines(kit: Kit, paylink: Json) {
  return [
    line("Paylink", paylink.id),
    line("Name", paylink.name),
    line("Price", `${paylink.amount} ${paylink.currency}`),
    line("Enabled", paylink.enabled),
    line("URL", payUrl(kit, paylink)),
  ];
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
