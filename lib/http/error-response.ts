import { ServiceError } from "../errors";
import { log } from "../log";

export type ErrorEnvelope = {
  error: { type: string; code: string; message: string; param?: string };
  requestId: string;
  success?: false;
};

/** Anything thrown as a ServiceError; unknown errors are logged and say nothing internal. */
export function toServiceError(error: unknown, requestId: string): ServiceError {
  if (error instanceof ServiceError) return error;
  log.error({ requestId, err: error }, "unhandled error");
  return new ServiceError(
    500,
    "api_error",
    "internal_error",
    `Something went wrong on our side. Quote request id ${requestId} if you contact support.`,
  );
}

/** The one mapping from anything thrown to the JSON error envelope. */
export function errorResponse(error: unknown, requestId: string, options: { privateApi: boolean }): Response {
  const known = toServiceError(error, requestId);
  const body: ErrorEnvelope = {
    ...(options.privateApi ? { success: false as const } : {}),
    error: {
      type: known.type,
      code: known.code,
      message: known.message,
      ...(known.param === undefined ? {} : { param: known.param }),
    },
    requestId,
  };
  return Response.json(body, { status: known.status, headers: known.headers });
}
