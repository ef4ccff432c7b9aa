import type { Db } from "../db/client";
import { failDevnetRefunds } from "../refunds/fail-devnet-refunds";
import { openSweepStatuses } from "./sweep-state";

/**
 * The local devnet starts from block 0 on every start: the nonces recorded for its signers are
 * past the new chain's counts (a transaction signed with one would never be mined), and sweeps and
 * refunds in flight refer to a chain that is gone. Forgets the nonces and fails those, with the reason.
 */
export async function forgetDevnetChain(database: Db) {
  await database.$transaction([
    database.signerNonce.deleteMany({ where: { network: "devnet" } }),
    failOpenSweeps(database, "devnet", "The devnet was restarted from block 0; its funds are gone."),
  ]);
  await failDevnetRefunds(database);
}

/**
 * Fails a restarted local chain's open sweeps with `reason`: their transfers and funds were on the
 * chain that is gone (the local Solana chain too, fresh on every start).
 */
export function failOpenSweeps(database: Db, network: string, reason: string) {
  return database.sweep.updateMany({
    where: { network, status: { in: [...openSweepStatuses] } },
    data: { status: "FAILED", failureReason: reason },
  });
}
