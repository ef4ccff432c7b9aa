import { chainFamilyOf, config } from "../config";
import type { Tx } from "../db/client";
import { ServiceError } from "../errors";

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

/** The deposit addresses at these indexes on a network, as its chain family derives them. */
export function depositAddressesAt(network: string, indexes: number[]): string[] {
  return chainFamilyOf(network).depositAddresses(depositKeys(), indexes);
}

/**
 * Allocates `count` fresh deposit addresses on a network inside the caller's transaction: the
 * counter row is incremented under its lock, so an index is never handed out twice.
 */
export async function allocateDepositAddresses(
  tx: Tx,
  network: string,
  count = 1,
): Promise<{ derivationIndex: number; depositAddress: string }[]> {
  const keys = depositKeys();
  const [{ nextIndex }] = await tx.$queryRaw<{ nextIndex: number }[]>`
    INSERT INTO "DerivationCounter" ("network", "nextIndex") VALUES (${network}, ${count})
    ON CONFLICT ("network") DO UPDATE SET "nextIndex" = "DerivationCounter"."nextIndex" + ${count}
    RETURNING "nextIndex"`;
  const indexes = Array.from({ length: count }, (_, offset) => nextIndex - count + offset);
  const addresses = chainFamilyOf(network).depositAddresses(keys, indexes);
  return indexes.map((derivationIndex, offset) => ({ derivationIndex, depositAddress: addresses[offset] }));
}
