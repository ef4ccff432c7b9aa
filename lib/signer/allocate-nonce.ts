import type { Tx } from "../db/client";

/**
 * The next nonce of `signer` on `network`, taken from PostgreSQL under the row's lock, inside the
 * caller's transaction (which records the signed transaction): a rolled-back recording gives the
 * nonce back, and two signers never take the same one. `chainCount` (the signer's transaction
 * count on chain) is a floor, for transactions the key sent outside this service.
 */
export async function allocateNonce(tx: Tx, network: string, signer: string, chainCount: number) {
  const [row] = await tx.$queryRaw<{ nonce: number }[]>`
    INSERT INTO "SignerNonce" ("network", "signer", "nextNonce")
    VALUES (${network}, ${signer.toLowerCase()}, ${chainCount + 1})
    ON CONFLICT ("network", "signer")
    DO UPDATE SET "nextNonce" = GREATEST("SignerNonce"."nextNonce", ${chainCount}) + 1
    RETURNING "nextNonce" - 1 AS "nonce"`;
  return Number(row.nonce);
}
