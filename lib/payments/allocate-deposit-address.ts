import type { HDKey } from "@scure/bip32";
import { config } from "../config";
import type { Tx } from "../db/client";
import { ServiceError } from "../errors";
import { depositAddress, depositKeyFromMnemonic, depositKeyFromXpub } from "./derive-deposit-address";

let cached: { source: string; key: HDKey } | undefined;
/** The deposit chain key: from the account xpub (no private key) or else the mnemonic. */
export function depositKey() {
  const { hdXpub, hdMnemonic } = config();
  const source = hdXpub ?? hdMnemonic;
  if (!source) {
    throw new ServiceError(
      503,
      "api_error",
      "payments_not_configured",
      "Payments are not configured on this service yet.",
    );
  }
  if (cached?.source !== source)
    cached = { source, key: hdXpub ? depositKeyFromXpub(hdXpub) : depositKeyFromMnemonic(source) };
  return cached.key;
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
  const key = depositKey();
  const [{ nextIndex }] = await tx.$queryRaw<{ nextIndex: number }[]>`
    INSERT INTO "DerivationCounter" ("network", "nextIndex") VALUES (${network}, ${count})
    ON CONFLICT ("network") DO UPDATE SET "nextIndex" = "DerivationCounter"."nextIndex" + ${count}
    RETURNING "nextIndex"`;
  const first = nextIndex - count;
  return Array.from({ length: count }, (_, offset) => ({
    derivationIndex: first + offset,
    depositAddress: depositAddress(key, first + offset),
  }));
}
