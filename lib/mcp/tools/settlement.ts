import { listNote, toolResult } from "crypto-checkout-agent/catalog";
import { getOrganization } from "../../organizations/get-organization";
import { updateOrganizationSchema } from "../../organizations/organization-schemas";
import { serializeOrganization } from "../../organizations/serialize-organization";
import { settlementRequester } from "../../settlement/settlement-requester";
import { updateOrganizationAndWallets } from "../../settlement/update-organization-and-wallets";
import { listSweeps, sweepListQuery } from "../../sweeps/list-sweeps";
import { serializeSweep } from "../../sweeps/serialize-sweep";
import { listPage } from "../../validation/list-page";
import { parseOrThrow } from "../../validation/validation-error";
import { confirmToolCall } from "./confirm-tool-call";
import type { ToolHandlers } from "./tool-context";

export const settlementTools: ToolHandlers<"service_settlement_" | "service_sweeps_"> = {
  service_sweeps_list: async (input, { db, caller }) => {
    const query = parseOrThrow(sweepListQuery, input);
    const { sweeps, total } = await listSweeps(db, caller.organizationId, query);
    const page = listPage(sweeps.map(serializeSweep), query, total);
    return toolResult(page, listNote(page));
  },

  service_settlement_configure: async (input, context) => {
    const { db, caller } = context;
    // Checked before asking, so the user confirms only addresses that will be accepted.
    const update = parseOrThrow(updateOrganizationSchema, { settlementWallets: input.settlementWallets });
    const current = serializeOrganization(await getOrganization(db, caller.organizationId));
    const listWallets = (wallets: { network: string; address: string }[]) =>
      wallets.length ? wallets.map((wallet) => `${wallet.network} ${wallet.address}`).join(", ") : "none";
    const gate = await confirmToolCall(
      context,
      `Replace the settlement wallets of "${current.name}": now ${listWallets(current.settlementWallets)}; after: ${listWallets(update.settlementWallets ?? [])}. ${
        context.decision === "propose"
          ? "This connection only proposes it: every owner is emailed and it takes effect only if an owner confirms it in the dashboard."
          : "Every owner is emailed; each change takes effect after the settlement change delay, first wallets too (with no delay configured, only once an owner confirms it). Received payments will then be swept to the new addresses; a wrong address loses the money."
      }`,
      { settlementWallets: current.settlementWallets, pending: current.pendingSettlementWallets },
    );
    if (!gate.proceed) return gate.result;
    const organization = serializeOrganization(
      await updateOrganizationAndWallets(
        db,
        caller.organizationId,
        update,
        () => settlementRequester(caller),
        gate.use,
      ),
    );
    return toolResult(
      organization,
      context.decision === "propose"
        ? "Proposed, not applied: every owner was emailed a link to confirm or reject it in the dashboard (pendingSettlementWallets). Sweeps go on to the wallets in settlementWallets."
        : undefined,
    );
  },
};
