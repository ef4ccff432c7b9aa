import { announceCredentialChange } from "../credential-cache/announce-credential-change";
import type { Db } from "../db/client";
import { notFound } from "../errors";

/** Revokes an agent credential of the organization; revoking twice keeps the first time. */
export async function revokeAgentCredential(
  database: Db,
  input: { organizationId: string; agentCredentialId: string },
) {
  const credential = await database.agentCredential.findFirst({
    where: { id: input.agentCredentialId, organizationId: input.organizationId },
  });
  if (!credential) throw notFound("agent credential", "agentCredentialId");
  if (credential.revokedAt) return credential;
  const revoked = await database.agentCredential.update({
    where: { id: credential.id },
    data: { revokedAt: new Date() },
  });
  await announceCredentialChange();
  return revoked;
}
