// The service's error envelope (docs/api.md, "Errors") is also the shape of every error the kit reports,
// so agents parse one format whether the service or the kit found the problem.

import type { ErrorEnvelope } from "../catalog";

export const exitCodes = {
  ok: 0,
  failedCheck: 1,
  usage: 2,
  auth: 3,
  service: 4,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** An error with its envelope and the exit code it ends the command with. */
export class KitError extends Error {
  constructor(
    readonly envelope: ErrorEnvelope,
    readonly exitCode: ExitCode,
    readonly status?: number,
  ) {
    super(envelope.error.message);
  }

  get code() {
    return this.envelope.error.code;
  }
}

export function usageError(code: string, message: string, param?: string): KitError {
  return new KitError(
    { error: { type: "invalid_request_error", code, message, ...(param ? { param } : {}) } },
    exitCodes.usage,
  );
}

export function authError(code: string, message: string): KitError {
  return new KitError({ error: { type: "authentication_error", code, message } }, exitCodes.auth);
}

export function checkFailed(code: string, message: string): KitError {
  return new KitError({ error: { type: "check_failed", code, message } }, exitCodes.failedCheck);
}

/** 401 and 403 mean the credential (or its access) is the problem; anything else is the service's answer. */
export function fromResponse(status: number, body: unknown): KitError {
  const envelope = isEnvelope(body)
    ? { error: body.error, ...(body.requestId ? { requestId: body.requestId } : {}) }
    : {
        error: {
          type: "api_error",
          code: `http_${status}`,
          message: `The service answered ${status} without an error body.`,
        },
      };
  return new KitError(
    envelope,
    status === 401 || status === 403 ? exitCodes.auth : exitCodes.service,
    status,
  );
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as ErrorEnvelope | null)?.error;
  return typeof error?.code === "string" && typeof error.message === "string";
}

export function toKitError(error: unknown): KitError {
  if (error instanceof KitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new KitError({ error: { type: "api_error", code: "unexpected_error", message } }, exitCodes.service);
}
