import type { Command } from "commander";
import type { Json } from "../cli/arguments";
import { contractCommand } from "../cli/define-command";
import { line, pageLines } from "../cli/text-lines";
import { createRefund, listRefunds, retrieveRefund } from "../contracts";
import * as api from "../operations/merchant-api";

/** Refunds: sending a paid invoice's money back, listing refunds and following one. */
export function registerRefundCommands(program: Command) {
  contractCommand(program, createRefund, {
    action: async ({ input, options }, output, kit) => {
      const refund = await api.createRefund(
        kit,
        input.body as Parameters<typeof api.createRefund>[1],
        options.idempotencyKey as string | undefined,
      );
      return output.result(refund, [...refundLines(refund), line("Idempotency-Key", refund.idempotencyKey)]);
    },
  });
  contractCommand(program, listRefunds, { lines: (page) => pageLines(page, refundLine) });
  contractCommand(program, retrieveRefund, { lines: refundLines });
}

function refundLine(refund: Json) {
  return `${refund.id}  ${refund.status}  ${refund.amount} ${refund.token} on ${refund.network}  ${refund.invoiceId} → ${refund.toAddress ?? refund.destination}`;
}

function refundLines(refund: Json) {
  return [
    refundLine(refund),
    ...(refund.claimUrl ? [line("Claim link", refund.claimUrl)] : []),
    ...(refund.txHash ? [line("Transaction", refund.txHash)] : []),
    ...(refund.pendingReason ? [line("Waiting", refund.pendingReason)] : []),
    ...(refund.failureReason ? [line("Failed", refund.failureReason)] : []),
  ];
}
