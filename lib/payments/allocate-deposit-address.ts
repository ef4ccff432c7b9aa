import { chainFamily } from "../chains/chain-families";
import type { DepositKeys, PaymentReceiver } from "../chains/chain-family";
import { config } from "../config";
import type { Tx } from "../db/client";
import { invalidRequest, ServiceError } from "../errors";

/** An invoice's place to be paid: its derivation index, the address and the reference (or null). */
export type AllocatedReceiver = { derivationIndex: number; depositAddress: string; reference: string | null };

/** The deposit key material (the account xpub, or else the mnemonic); 503 until payments are configured. */
function depositKeys() {
  const { hdXpub, hdMnemonic } = config();
  if (!hdXpub && !hdMnemonic) {
    throw new ServiceError(
      503,
      "api_error",
      "payments_not_configured",
      "Payments are not configured on this service yet.",
    );
  }
  return { hdXpub, hdMnemonic };
}

/** Where invoices at these indexes on a network are paid, as its chain family derives them. */
export function paymentReceiversAt(networkId: string, indexes: number[]): PaymentReceiver[] {
  return receiversAt(networkId, depositKeys(), indexes);
}

function receiversAt(networkId: string, keys: DepositKeys, indexes: number[]): PaymentReceiver[] {
  const network = config().networks.find((candidate) => candidate.id === networkId);
  if (!network)
    throw invalidRequest("network_unavailable", `Network ${networkId} is not available here.`, "network");
  return chainFamily(network).paymentReceivers(network, keys, indexes);
}

/**
 * Allocates `count` fresh receivers (deposit addresses, or a shared address with references) on a network inside the caller's transaction: the
 * counter row is incremented under its lock, so an index is never handed out twice.
 */
export async function allocateDepositAddresses(
  tx: Tx,
  network: string,
  count = 1,
): Promise<AllocatedReceiver[]> {
  const keys = depositKeys();
  const [{ nextIndex }] = await tx.$queryRaw<{ nextIndex: number }[]>`
    INSERT INTO "DerivationCounter" ("network", "nextIndex") VALUES (${network}, ${count})
    ON CONFLICT ("network") DO UPDATE SET "nextIndex" = "DerivationCounter"."nextIndex" + ${count}
    RETURNING "nextIndex"`;
  const indexes = Array.from({ length: count }, (_, offset) => nextIndex - count + offset);
  const receivers = receiversAt(network, keys, indexes);
  return indexes.map((derivationIndex, offset) => ({
    derivationIndex,
    depositAddress: receivers[offset].address,
    reference: receivers[offset].reference,
  }));
}
