import { type Command, Option } from "commander";
import { type Json, wholeNumber } from "../cli/arguments";
import { commandDefiner, run } from "../cli/define-command";
import { line, pageLines } from "../cli/text-lines";
import { usageError } from "../http/errors";
import * as api from "../operations/merchant-api";
import { refundStatusValues } from "../shapes";

/** Refunds: sending a paid invoice's money back, listing refunds and following one. */
export function registerRefundCommands(program: Command) {
  const define = commandDefiner(program);

  define(
    "refunds:create",
    "Refund a paid invoice on chain: to the address that paid, through a claim link, or to an address. Needs --confirm.",
    "crypto-checkout refunds:create --invoice inv_… --amount 16.5 --destination payer --confirm",
  )
    .requiredOption("--invoice <id>", "the paid invoice (inv_…)")
    .option("--amount <amount>", "in the invoice's token, e.g. 16.5; default: all that is left")
    .requiredOption("--destination <destination>", "payer, claim or an EVM address (0x…)")
    .option("--reason <reason>", "shown to the buyer and in the dashboard (at most 500 characters)")
    .option("--idempotency-key <key>", "16 to 200 characters; generated when absent")
    .option("--confirm", "confirm that money is sent and cannot be taken back")
    .action(
      run<{
        format: "text" | "json";
        invoice: string;
        amount?: string;
        destination: string;
        reason?: string;
        idempotencyKey?: string;
        confirm?: boolean;
      }>(async (options, output, kit) => {
        if (!options.confirm) {
          throw usageError("confirmation_required", "Refunding sends money and needs --confirm.", "confirm");
        }
        const refund = await api.createRefund(
          kit,
          {
            invoiceId: options.invoice,
            amount: options.amount,
            destination: options.destination,
            reason: options.reason,
          },
          options.idempotencyKey,
        );
        return output.result(refund, [
          ...refundLines(refund),
          line("Idempotency-Key", refund.idempotencyKey),
        ]);
      }),
    );

  define(
    "refunds:list",
    "List refunds, newest first; filter by invoice or status.",
    "crypto-checkout refunds:list --invoice inv_… --status pending",
  )
    .option("--invoice <id>", "only this invoice's refunds (inv_…)")
    .addOption(new Option("--status <status>", "only refunds in this status").choices(refundStatusValues))
    .option("--page <page>", "page number, from 1", wholeNumber(1_000_000))
    .option("--rows <rows>", "rows per page, 1 to 100", wholeNumber(100))
    .action(
      run<{ format: "text" | "json"; invoice?: string; status?: string; page?: number; rows?: number }>(
        async (options, output, kit) => {
          const page = await api.listRefunds(kit, {
            invoiceId: options.invoice,
            status: options.status,
            page: options.page,
            rows: options.rows,
          });
          return output.result(page, pageLines(page, refundLine));
        },
      ),
    );

  define("refunds:get", "Show one refund.", "crypto-checkout refunds:get --id rfd_…")
    .requiredOption("--id <id>", "the refund id (rfd_…)")
    .action(
      run<{ format: "text" | "json"; id: string }>(async (options, output, kit) => {
        const refund = await api.getRefund(kit, options.id);
        return output.result(refund, refundLines(refund));
      }),
    );
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
