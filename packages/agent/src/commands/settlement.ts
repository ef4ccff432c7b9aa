import type { Command } from "commander";
import { contractCommand } from "../cli/define-command";
import { line, pageLines } from "../cli/text-lines";
import { configureSettlement, listSweeps } from "../contracts";

/** Where payments are swept to, and the sweeps that moved them there. */
export function registerSettlementCommands(program: Command) {
  contractCommand(program, configureSettlement, {
    lines: ({ settlementWallets, pendingSettlementWallets }) => [
      ...(settlementWallets ?? []).map((wallet) => line(wallet.network, wallet.address)),
      // A change is in force only once an owner confirmed it and its delay is over.
      ...(pendingSettlementWallets ?? []).map((change) =>
        line(
          `${change.network} (${change.status})`,
          `${change.address ?? "no wallet"}, ${
            change.effectiveAt ? `from ${change.effectiveAt}` : "once an owner confirms it in the dashboard"
          }`,
        ),
      ),
    ],
  });
  contractCommand(program, listSweeps, {
    lines: (page) =>
      pageLines(
        page,
        (sweep) =>
          `${sweep.id}  ${sweep.status}  ${sweep.amount} ${sweep.token} on ${sweep.network}  ${sweep.fromAddress} → ${sweep.toAddress}${sweep.failureReason ? `  (${sweep.failureReason})` : ""}`,
      ),
  });
}
