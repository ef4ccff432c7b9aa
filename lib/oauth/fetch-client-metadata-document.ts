import { config } from "../config";
import { guardedFetch, OutboundRequestError } from "../net/guarded-fetch";
import { webhookUrlProblem } from "../webhooks/url-guard";
import { oauthError } from "./oauth-error";
import { clientMetadataDocumentSchema } from "./oauth-schemas";

// A Client ID Metadata Document is fetched from a URL a stranger chose, so it goes through the
// app's one SSRF-guarded fetcher (public addresses only unless allowed for development, no
// redirects), with a short timeout and a small byte cap.

const maxDocumentBytes = 10 * 1024;
const fetchTimeoutMs = 5_000;

/** Whether a client_id is a metadata document URL rather than an id we issued. */
export function isClientMetadataUrl(clientId: string): boolean {
  return (
    clientId.startsWith("https://") || (config().webhooks.allowPrivateUrls && clientId.startsWith("http://"))
  );
}

/** Fetches and validates the document at `clientId`; its own `client_id` must be that URL. */
export async function fetchClientMetadataDocument(clientId: string) {
  const url = new URL(clientId);
  if (webhookUrlProblem(clientId) || url.hash || url.pathname === "/") {
    throw oauthError("invalid_client", "The client_id is not a usable metadata document URL.");
  }
  let response: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    response = await guardedFetch(clientId, {
      headers: { accept: "application/json" },
      timeoutMs: fetchTimeoutMs,
      // One byte more than allowed tells a document at the limit from one past it.
      maxBodyBytes: maxDocumentBytes + 1,
      allowPrivateAddresses: config().webhooks.allowPrivateUrls,
    });
  } catch (error) {
    if (error instanceof OutboundRequestError) {
      throw oauthError(
        "invalid_client",
        `The client metadata document could not be fetched (${error.message}).`,
      );
    }
    throw error;
  }
  if (response.status !== 200) {
    throw oauthError("invalid_client", `The client metadata document answered HTTP ${response.status}.`);
  }
  if (response.body.length > maxDocumentBytes) {
    throw oauthError(
      "invalid_client",
      `The client metadata document is larger than ${maxDocumentBytes} bytes.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(response.body.toString("utf8"));
  } catch {
    throw oauthError("invalid_client", "The client metadata document is not JSON.");
  }
  const parsed = clientMetadataDocumentSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw oauthError(
      "invalid_client",
      `The client metadata document is invalid: ${issue.path.join(".")} ${issue.message}.`,
    );
  }
  if (parsed.data.client_id !== clientId) {
    throw oauthError("invalid_client", "The client metadata document names another client_id.");
  }
  return parsed.data;
}
