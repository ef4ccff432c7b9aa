import { type Command, Option } from "commander";
import { readJsonArgument, wholeNumber } from "../cli/arguments";
import { commandDefiner, run } from "../cli/define-command";
import { line, pageLines } from "../cli/text-lines";
import { usageError } from "../http/errors";
import * as api from "../operations/merchant-api";
import { sweepObject } from "../shapes";

/** Where payments are swept to, and the sweeps that moved them there. */
export function registerSettlementCommands(program: Command) {
  const define = commandDefiner(program);

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
}
