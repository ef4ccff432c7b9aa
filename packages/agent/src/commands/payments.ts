import type { Command } from "commander";
import type { Json } from "../cli/arguments";
import { contractCommand } from "../cli/define-command";
import { line, payUrl } from "../cli/text-lines";
import { createCheckoutSession, retrieveCheckoutSession } from "../contracts";
import * as api from "../operations/merchant-api";

/** One-off payments: creating a checkout session and following a payment's status. */
export function registerPaymentCommands(program: Command) {
  contractCommand(program, createCheckoutSession, {
    action: async ({ input, options }, output, kit) => {
      const session = await api.createCheckoutSession(
        kit,
        input.body as Json,
        options.idempotencyKey as string | undefined,
      );
      // Started on a network: what a wallet pays, for a buyer who is not sent to the page.
      const request = session.paymentRequest;
      return output.result(session, [
        line("Session", session.id),
        line("Status", session.status),
        line("Pay at", payUrl(kit, session)),
        line("x402 URL", session.x402Url),
        ...(request
          ? [
              line(
                "Payment",
                `${request.id} ${request.amountDue} ${request.token} on ${request.networkName}`,
              ),
              line("Deposit address", request.depositAddress),
              ...(request.reference ? [line("Reference", request.reference)] : []),
              line("Payment URI", request.paymentUri),
            ]
          : []),
        line("Idempotency-Key", session.idempotencyKey),
      ]);
    },
  });
  contractCommand(program, retrieveCheckoutSession, {
    action: async ({ input }, output, kit) => {
      const status = await api.paymentStatus(kit, String(input.params?.id));
      const payment = status.payment as Json | undefined;
      return output.result(status, [
        line(status.object === "payment_request" ? "Payment" : "Session", `${status.id} ${status.status}`),
        ...(payment ? [line("Payment", `${payment.invoiceId ?? payment.id ?? ""} ${payment.status}`)] : []),
      ]);
    },
  });
}
