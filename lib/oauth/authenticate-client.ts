import { digestsEqual, hashSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
import { findClient } from "./find-client";
import { oauthError } from "./oauth-error";

export type ClientCredentials = { clientId?: string; clientSecret?: string; basic?: string | null };

/** `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 2.3.1), or nothing. */
function fromBasic(header: string | null | undefined) {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return {
    clientId: decodeURIComponent(decoded.slice(0, colon)),
    clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

/**
 * The client calling the token or revocation endpoint: a public client by its id, a confidential
 * one by its id and secret in the way it registered. Anything else is `invalid_client`.
 */
export async function authenticateClient(database: Db, credentials: ClientCredentials) {
  const basic = fromBasic(credentials.basic);
  const clientId = basic?.clientId ?? credentials.clientId;
  const secret = basic?.clientSecret ?? credentials.clientSecret;
  if (!clientId) throw oauthError("invalid_client", "Send client_id.");
  const client = await findClient(database, clientId).catch(() => null);
  if (!client) throw oauthError("invalid_client", "Unknown client.");
  if (client.tokenEndpointAuthMethod === "none") return client;
  const method = basic ? "client_secret_basic" : "client_secret_post";
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
