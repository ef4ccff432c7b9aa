import type { Db } from "../db/client";
import { fetchClientMetadataDocument, isClientMetadataUrl } from "./fetch-client-metadata-document";
import { oauthError } from "./oauth-error";
import { redirectUriProblem } from "./redirect-uri";

// Metadata documents are fetched again after a day, so a client's changes reach us without
// every authorization costing an outbound request.
const metadataCacheMs = 24 * 60 * 60 * 1000;

/** The client a client_id names: a registered one, or one described by its metadata document. */
export async function findClient(database: Db, clientId: string) {
  if (!isClientMetadataUrl(clientId)) {
    return database.oAuthClient.findUnique({ where: { id: clientId } });
  }
  const cached = await database.oAuthClient.findUnique({ where: { id: clientId } });
  if (cached?.fetchedAt && Date.now() - cached.fetchedAt.getTime() < metadataCacheMs) return cached;
  const document = await fetchClientMetadataDocument(clientId);
  for (const uri of document.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw oauthError("invalid_client", `The document's redirect URI ${uri} ${problem}.`);
  }
  const fields = {
    name: document.client_name ?? new URL(clientId).hostname,
    redirectUris: document.redirect_uris,
    tokenEndpointAuthMethod: "none",
    fetchedAt: new Date(),
  };
  return database.oAuthClient.upsert({
    where: { id: clientId },
    create: { id: clientId, ...fields },
    update: fields,
  });
}
