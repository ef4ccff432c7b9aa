import { checkedApiBaseUrl } from "../config/base-url";
import { authError, exitCodes, fromResponse, KitError } from "./errors";

export type ApiResponse<T> = { status: number; body: T; requestId: string | undefined };

type RequestOptions = {
  body?: unknown;
  /** `Bearer` token; omitted for the public and agent-access endpoints that take none. */
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /** Statuses that are answers rather than errors (202 pending, for example, is already 2xx). */
  accept?: (status: number) => boolean;
};

const userAgent = "crypto-checkout-agent";

/**
 * One HTTP call to the service's REST API. Unwraps the `{success, data}` envelope of
 * /api/private/*, and turns error answers into KitErrors carrying the service's own envelope.
 */
export async function callApi<T>(
  apiBaseUrl: string,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  checkedApiBaseUrl(apiBaseUrl);
  const url = new URL(`${apiBaseUrl}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": userAgent,
    ...options.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new KitError(
      {
        error: {
          type: "api_connection_error",
          code: "service_unreachable",
          message: `Could not reach ${url.origin} (${(error as Error).cause ?? (error as Error).message}). Check SERVICE_API_BASE_URL.`,
        },
      },
      exitCodes.service,
    );
  }
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const accepted = options.accept?.(response.status) ?? (response.status >= 200 && response.status < 300);
  if (!accepted) throw fromResponse(response.status, body);
  const unwrapped =
    body && typeof body === "object" && "success" in body && "data" in body
      ? (body as { data: T }).data
      : (body as T);
  return { status: response.status, body: unwrapped, requestId };
}

/** The credential commands authenticate with: the stored agent credential, else SERVICE_API_KEY. */
export function requireToken(token: string | undefined): string {
  if (!token) {
    throw authError(
      "not_authenticated",
      "No credential: run `crypto-checkout setup --agent <name>` then `crypto-checkout checkin --agent <name>`, or set SERVICE_API_KEY.",
    );
  }
  return token;
}
