import type { Command } from "commander";
import { type Json, readJsonArgument } from "../cli/arguments";
import { commandDefiner, run } from "../cli/define-command";
import { line, payUrl } from "../cli/text-lines";
import * as api from "../operations/merchant-api";

/** One-off payments: creating a checkout session and following a payment's status. */
export function registerPaymentCommands(program: Command) {
  const define = commandDefiner(program);

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
            line("x402 URL", session.x402Url),
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
}
