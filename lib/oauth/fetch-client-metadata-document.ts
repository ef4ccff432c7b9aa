import { config } from "../config";
import { resolvesToPublicAddresses, webhookUrlProblem } from "../webhooks/url-guard";
import { oauthError } from "./oauth-error";
import { clientMetadataDocumentSchema } from "./oauth-schemas";

// A Client ID Metadata Document is fetched from a URL a stranger chose, so it goes through the
// same outbound guard as webhooks (public addresses only, unless allowed for development), with
// no redirects, a short timeout and a small byte cap.

const maxDocumentBytes = 10 * 1024;
const fetchTimeoutMs = 5_000;

/** Whether a client_id is a metadata document URL rather than an id we issued. */
export function isClientMetadataUrl(clientId: string): boolean {
  return (
    clientId.startsWith("https://") || (config().webhooks.allowPrivateUrls && clientId.startsWith("http://"))
  );
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxDocumentBytes) {
      await reader.cancel();
      throw oauthError(
        "invalid_client",
        `The client metadata document is larger than ${maxDocumentBytes} bytes.`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Fetches and validates the document at `clientId`; its own `client_id` must be that URL. */
export async function fetchClientMetadataDocument(clientId: string) {
  const url = new URL(clientId);
  const problem = webhookUrlProblem(clientId);
  if (problem || url.hash || url.pathname === "/") {
    throw oauthError("invalid_client", "The client_id is not a usable metadata document URL.");
  }
  if (!(await resolvesToPublicAddresses(clientId))) {
    throw oauthError("invalid_client", "The client_id URL does not resolve to a public address.");
  }
  let response: Response;
  try {
    response = await fetch(clientId, {
      redirect: "error",
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(fetchTimeoutMs),
    });
  } catch {
    throw oauthError("invalid_client", "The client metadata document could not be fetched.");
  }
  if (!response.ok) {
    throw oauthError("invalid_client", `The client metadata document answered HTTP ${response.status}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(await readCapped(response));
  } catch (error) {
    if (error instanceof SyntaxError)
      throw oauthError("invalid_client", "The client metadata document is not JSON.");
    throw error;
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
