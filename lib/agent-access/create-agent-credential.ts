import { generateCredential } from "../crypto/tokens";
import type { Tx } from "../db/client";
import { newId } from "../ids";
import { agentCredentialPrefix } from "./agent-credential-secret";

/**
 * Issues an agent credential. Called inside the transaction that consumes the check-in, so the
 * secret exists only in this result, handed to the one caller that won the check-in.
 */
export async function createAgentCredential(
  tx: Tx,
  input: { organizationId: string; agentName: string; access: "read" | "write"; createdByUserId: string },
) {
  const { secret, hash, prefix } = generateCredential(agentCredentialPrefix);
  const credential = await tx.agentCredential.create({
    data: {
      id: newId("agentCredential"),
      organizationId: input.organizationId,
      agentName: input.agentName,
      access: input.access === "read" ? "READ" : "WRITE",
      prefix,
      hash,
      createdByUserId: input.createdByUserId,
    },
  });
  return { credential, secret };
}
