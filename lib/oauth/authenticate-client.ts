import { digestsEqual, hashSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
import { limitFailedAuthentications, limitFailures } from "../rate-limit/rate-limit";
import { findClient } from "./find-client";
import { oauthError } from "./oauth-error";

/** Client credentials as sent in the body (client_secret_post, or a public client's id). */
export type BodyCredentials = { client_id?: string; client_secret?: string };

/** `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 2.3.1), or nothing. */
function fromBasic(header: string | null | undefined) {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon)),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    // Not percent-encoding (`%ff`): credentials nobody could have registered.
    throw oauthError("invalid_client", "Client authentication failed.");
  }
}

/**
 * The client calling the token or revocation endpoint: a public client by its id, a confidential
 * one by its id and secret in the way it registered. Anything else is `invalid_client`. Failures
 * are limited like failed sign-ins, per client address and per client id: guessing a secret
 * ends in 429 with Retry-After.
 */
export function authenticateClient(
  database: Db,
  body: BodyCredentials,
  authorizationHeader: string | null,
  clientAddress: string,
) {
  return limitFailedAuthentications(clientAddress, async () => {
    const basic = fromBasic(authorizationHeader);
    const clientId = basic?.clientId ?? body.client_id;
    if (!clientId) throw oauthError("invalid_client", "Send client_id.");
    return limitFailures("authFailure", `oauth-client:${clientId}`, 401, () =>
      findAuthenticClient(
        database,
        clientId,
        basic ? basic.clientSecret : body.client_secret,
        basic !== null,
      ),
    );
  });
}

async function findAuthenticClient(
  database: Db,
  clientId: string,
  secret: string | undefined,
  sentBasic: boolean,
) {
  const client = await findClient(database, clientId).catch(() => null);
  if (!client) throw oauthError("invalid_client", "Unknown client.");
  if (client.tokenEndpointAuthMethod === "none") return client;
  const method = sentBasic ? "client_secret_basic" : "client_secret_post";
  if (
    !secret ||
    !client.secretHash ||
    method !== client.tokenEndpointAuthMethod ||
    !digestsEqual(hashSecret(secret), client.secretHash)
  ) {
    throw oauthError("invalid_client", "Client authentication failed.");
  }
  return client;
}
