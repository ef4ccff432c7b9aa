import { confirmationUsed } from "crypto-checkout-agent/catalog";
import { hashSecret } from "../crypto/tokens";
import type { Tx } from "../db/client";
import { ServiceError } from "../errors";

/**
 * Records a destructive tool's confirmation token as used, inside the transaction of the action
 * it confirms: the action and the record commit together or not at all, and a second use (or a
 * concurrent copy, which waits on the first's row) is refused.
 */
export async function useConfirmationToken(
  tx: Tx,
  use: { token: string; organizationId: string; tool: string },
): Promise<void> {
  const recorded = await tx.$executeRaw`
    INSERT INTO "UsedConfirmation" ("tokenHash", "organizationId", "tool")
    VALUES (${hashSecret(use.token)}, ${use.organizationId}, ${use.tool})
    ON CONFLICT DO NOTHING`;
  if (recorded === 0) {
    throw new ServiceError(409, "invalid_request_error", confirmationUsed.code, confirmationUsed.message);
  }
}
