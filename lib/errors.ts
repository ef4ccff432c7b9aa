// The one error type of the service. Domain code throws it; lib/http/error-response.ts maps it
// (and anything else) to the JSON error envelope (docs/api.md, "Errors"), and lib/mcp to a tool error.
import { isDatabaseUnavailable } from "./db/database-unavailable";
import { log } from "./log";

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "idempotency_error"
  | "rate_limit_error"
  | "api_error";

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export const invalidRequest = (code: string, message: string, param?: string) =>
  new ServiceError(400, "invalid_request_error", code, message, param);

export const unauthenticated = (code: string, message: string) =>
  new ServiceError(401, "authentication_error", code, message);

export const forbidden = (code: string, message: string) =>
  new ServiceError(403, "permission_error", code, message);

/** Unknown ids and ids of another organization look the same, so ids cannot be probed. */
export const notFound = (resource: string, param = "id") =>
  new ServiceError(404, "not_found_error", "resource_missing", `No such ${resource}.`, param);

/** A method the path does not take; `allow` names the ones it does (the `Allow` header). */
export const methodNotAllowed = (method: string, allow: string) =>
  new ServiceError(
    405,
    "invalid_request_error",
    "method_not_allowed",
    `${method} is not allowed here. Allowed: ${allow}.`,
    undefined,
    { Allow: allow },
  );

/** A one-time thing that existed and can no longer be used (expired, used up). */
export const gone = (code: string, message: string) =>
  new ServiceError(410, "invalid_request_error", code, message);

export const conflict = (code: string, message: string) =>
  new ServiceError(409, "idempotency_error", code, message);

export const rateLimited = (retryAfterSeconds: number) =>
  new ServiceError(429, "rate_limit_error", "rate_limited", "Too many requests.", undefined, {
    "Retry-After": String(retryAfterSeconds),
  });

/** A dependency (the database) is down or restarting: try again shortly. */
export const serviceUnavailable = (retryAfterSeconds: number) =>
  new ServiceError(
    503,
    "api_error",
    "service_unavailable",
    "The service is briefly unavailable. Try again shortly.",
    undefined,
    { "Retry-After": String(retryAfterSeconds) },
  );

/** Text that is not ours: a stack frame, a file path, a library's name or its docs. */
const foreignText =
  /\n\s+at |node_modules|[\\/][\w.-]+\.(?:[cm]?js|tsx?):\d|\bprisma\b|\bviem\b|Docs: https?:|Version: \S*@\d/i;

/**
 * A ServiceError whose message carries a library's text (one built from a caught error's
 * message) keeps its status and code but says only what the code means; the text is logged.
 */
function ownMessage(error: ServiceError, requestId: string): ServiceError {
  if (!foreignText.test(error.message)) return error;
  log.warn({ requestId, code: error.code, err: error }, "error message with foreign text withheld");
  return new ServiceError(
    error.status,
    error.type,
    error.code,
    `The request failed (${error.code}). Quote request id ${requestId} if you contact support.`,
    error.param,
    error.headers,
  );
}

/** The SQLSTATE of a PostgreSQL error, thrown by pg itself or wrapped by Prisma's pg adapter. */
function postgresCode(error: unknown): string | undefined {
  const found = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { code?: unknown } } } };
  const code = found?.meta?.driverAdapterError?.cause?.code ?? found?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Anything thrown as a ServiceError; unknown errors are logged and say nothing internal: the
 * client sees our code and message, never a library's text, a stack or a path. A lost database
 * is a 503: the pool reconnects by itself once the server is back.
 */
export function toServiceError(error: unknown, requestId: string): ServiceError {
  if (error instanceof ServiceError) return ownMessage(error, requestId);
  if (isDatabaseUnavailable(error)) {
    log.warn({ requestId, err: error }, "database unavailable");
    return serviceUnavailable(2);
  }
  // Text PostgreSQL cannot store (NUL) is refused at the request's edge (lib/validation/storable-text.ts);
  // one that slipped past is still the client's bad input, not our failure.
  if (postgresCode(error) === "22021") {
    log.warn({ requestId, err: error }, "unstorable text reached the database");
    return invalidRequest(
      "parameter_invalid",
      "Text must not contain NUL characters or unpaired UTF-16 surrogates.",
    );
  }
  log.error({ requestId, err: error }, "unhandled error");
  return new ServiceError(
    500,
    "api_error",
    "internal_error",
    `Something went wrong on our side. Quote request id ${requestId} if you contact support.`,
  );
}
