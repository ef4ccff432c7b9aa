import { agentCredentialShape } from "../agent-access/agent-credential-secret";
import { apiKeyShape } from "../api-keys/api-key-secret";
import type { Db } from "../db/client";
import { unauthenticated } from "../errors";
import { accessTokenShape } from "../oauth/oauth-settings";
import { limitFailedAuthentications } from "../rate-limit/rate-limit";
import { authenticateOAuthAccessToken } from "./authenticate-access-token";
import { authenticateStoredCredential } from "./authenticate-stored-credential";
import type { MerchantCaller } from "./merchant-caller";

export type { MerchantCaller } from "./merchant-caller";

type Audience = "rest" | "mcp";

type CredentialKind = {
  prefix: string;
  /** The exact shape; anything else is refused before the database is asked. */
  shape: RegExp;
  audiences: readonly Audience[];
  invalid: { code: string; message: string };
  authenticate: (database: Db, token: string) => Promise<MerchantCaller | null>;
};

// One entry per credential a merchant caller may present, told apart by prefix.
const credentialKinds: readonly CredentialKind[] = [
  {
    prefix: "sk_live_",
    shape: apiKeyShape,
    audiences: ["rest", "mcp"],
    invalid: {
      code: "invalid_api_key",
      message: "The API key is not valid. Check for typos, or create a new key.",
    },
    authenticate: (database, token) => authenticateStoredCredential(database, "api_key", token),
  },
  {
    prefix: "sk_agent_",
    shape: agentCredentialShape,
    audiences: ["rest", "mcp"],
    invalid: {
      code: "invalid_agent_credential",
      message:
        "The agent credential is not valid or was revoked. Connect the agent again (`crypto-checkout setup`).",
    },
    authenticate: (database, token) => authenticateStoredCredential(database, "agent", token),
  },
  // OAuth access tokens: issued for the MCP server (their audience), so only it accepts them.
  {
    prefix: "cc_at_",
    shape: accessTokenShape,
    audiences: ["mcp"],
    invalid: { code: "invalid_token", message: "The access token is not valid or has expired." },
    authenticate: authenticateOAuthAccessToken,
  },
];

const unknownCredential = credentialKinds[0].invalid;

/**
 * Resolves `Authorization: Bearer …` to the merchant caller it proves. The token's prefix picks
 * the credential kind and its shape is checked before any lookup. Failed authentications count
 * against the client address; a client over that budget is refused before any lookup too.
 */
export function authenticateMerchant(
  database: Db,
  authorizationHeader: string | null,
  options: { clientAddress: string; audience: Audience },
): Promise<MerchantCaller> {
  return limitFailedAuthentications(options.clientAddress, async () => {
    if (!authorizationHeader) {
      throw unauthenticated(
        "missing_api_key",
        "No API key provided. Send it as `Authorization: Bearer sk_live_…`.",
      );
    }
    const token = /^Bearer (\S+)$/.exec(authorizationHeader)?.[1];
    if (!token) {
      throw unauthenticated(
        "invalid_authorization_header",
        "The Authorization header must be `Bearer <API key>`.",
      );
    }
    const kind = credentialKinds.find(
      (candidate) => token.startsWith(candidate.prefix) && candidate.audiences.includes(options.audience),
    );
    if (!kind) throw unauthenticated(unknownCredential.code, unknownCredential.message);
    const caller = kind.shape.test(token) ? await kind.authenticate(database, token) : null;
    if (!caller) throw unauthenticated(kind.invalid.code, kind.invalid.message);
    return { ...caller, clientAddress: options.clientAddress };
  });
}
