import { digestsEqual, hashSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
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
  return {
    clientId: decodeURIComponent(decoded.slice(0, colon)),
    clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

/**
 * The client calling the token or revocation endpoint: a public client by its id, a confidential
 * one by its id and secret in the way it registered. Anything else is `invalid_client`.
 */
export async function authenticateClient(
  database: Db,
  body: BodyCredentials,
  authorizationHeader: string | null,
) {
  const basic = fromBasic(authorizationHeader);
  const clientId = basic?.clientId ?? body.client_id;
  const secret = basic?.clientSecret ?? body.client_secret;
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
