import type { Db, Tx } from "../db/client";
import { createAgentCredential } from "./create-agent-credential";

/**
 * Hands a credential out exactly once. `claim` marks the setup or signup completed with a
 * conditional update, in the transaction that creates the credential: of concurrent callers one
 * counts the row and gets the secret, the others count none and get `used()`.
 */
export function issueAgentCredentialOnce(
  database: Db,
  input: {
    claim: (tx: Tx) => Promise<{ count: number }>;
    link: (tx: Tx, credentialId: string) => Promise<unknown>;
    credential: Parameters<typeof createAgentCredential>[1];
    used: () => Error;
  },
) {
  return database.$transaction(async (tx) => {
    const { count } = await input.claim(tx);
    if (count !== 1) throw input.used();
    const issued = await createAgentCredential(tx, input.credential);
    await input.link(tx, issued.credential.id);
    return issued;
  });
}
