import { invalidRequest } from "../errors";
import { type ApiVersion, apiVersionField, apiVersionHeader, latestApiVersion } from "./api-versions";

/**
 * The version a request is answered in: the one it asks for in `X-Service-Version`, else the
 * organization's pinned one, else the latest. An unknown requested version is a 400, never a
 * silent fallback: the client would be reading a shape it did not ask for.
 */
export function resolveApiVersion(requested: string | null, pinned?: string): ApiVersion {
  if (requested === null) {
    const stored = apiVersionField.safeParse(pinned);
    return stored.success ? stored.data : latestApiVersion;
  }
  const parsed = apiVersionField.safeParse(requested.trim());
  if (!parsed.success) {
    throw invalidRequest(
      "invalid_api_version",
      `Unknown API version in ${apiVersionHeader}: it ${parsed.error.issues[0].message}.`,
      apiVersionHeader,
    );
  }
  return parsed.data;
}
