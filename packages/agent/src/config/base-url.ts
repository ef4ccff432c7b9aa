import { usageError } from "../http/errors";

/**
 * The service's API base URL, checked before anything goes out: HTTPS, or plain HTTP only to this
 * machine. Every call after setup carries a bearer credential, and the approval page the kit
 * opens is built from this URL, so neither may travel in clear text over a network.
 */
export function checkedApiBaseUrl(apiBaseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(apiBaseUrl);
  } catch {
    throw baseUrlError("invalid_base_url", `SERVICE_API_BASE_URL is not a URL: ${apiBaseUrl}`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol !== "http:") {
    throw baseUrlError(
      "invalid_base_url",
      `SERVICE_API_BASE_URL must be an https:// URL, not ${url.protocol}`,
    );
  }
  if (isLoopback(url.hostname)) return url;
  throw baseUrlError(
    "insecure_base_url",
    `SERVICE_API_BASE_URL must use https:// (plain http:// only for localhost, 127.0.0.0/8 or [::1]): ${url.origin}`,
  );
}

// The URL parser has already normalised the host (127.1 → 127.0.0.1, [0:0::1] → [::1]).
function isLoopback(hostname: string) {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function baseUrlError(code: string, message: string) {
  return usageError(code, message, "SERVICE_API_BASE_URL");
}

/** `{base_url}`: the service's own address, the API base without its /api suffix. */
export function serviceBaseUrl(apiBaseUrl: string): string {
  return apiBaseUrl.replace(/\/api$/, "");
}

/**
 * The one page the kit sends a person to: the fixed approval page where they type the code the
 * agent printed. Built from the configured base URL only, never from a URL the service answered,
 * so a compromised or spoofed answer cannot point the browser elsewhere.
 */
export function approvalPageUrl(apiBaseUrl: string): string {
  checkedApiBaseUrl(apiBaseUrl);
  return `${serviceBaseUrl(apiBaseUrl)}/agent/setup`;
}
