import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
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

/** Sends one request to the service; a connection failure is a KitError naming the base URL. */
async function send(
  apiBaseUrl: string,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  options: RequestOptions & { mediaType?: string; timeoutMs?: number },
): Promise<Response> {
  checkedApiBaseUrl(apiBaseUrl);
  const url = new URL(`${apiBaseUrl}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = {
    accept: options.mediaType ?? "application/json",
    "user-agent": userAgent,
    ...options.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  try {
    return await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
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
}

/** The JSON of an answer's text, or null. */
function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

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
  const response = await send(apiBaseUrl, method, path, options);
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const body = parsed(await response.text());
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

/**
 * A GET whose answer is a file (a CSV report): streamed to `file` as it arrives, never held whole;
 * an error answer is a KitError as in callApi. `file` picks where, given the name the service
 * suggests; returns the file written and its size.
 */
export async function downloadApi(
  apiBaseUrl: string,
  path: string,
  options: { query: Record<string, string>; token: string; file: (suggested: string | null) => string },
): Promise<{ file: string; bytes: number }> {
  // A year of sales streams for a while: the timeout is for a stalled service, not a long file.
  const response = await send(apiBaseUrl, "GET", path, {
    query: options.query,
    token: options.token,
    mediaType: "text/csv",
    timeoutMs: 600_000,
  });
  if (!response.ok || !response.body) throw fromResponse(response.status, parsed(await response.text()));
  const suggested =
    /filename="([^"/\\]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? null;
  const file = options.file(suggested);
  let bytes = 0;
  const counted = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>).on(
    "data",
    (chunk: Buffer) => {
      bytes += chunk.length;
    },
  );
  await pipeline(counted, createWriteStream(file));
  return { file, bytes };
}
