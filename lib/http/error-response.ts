import { ServiceError } from "../errors";
import { log } from "../log";

export type ErrorEnvelope = {
  error: { type: string; code: string; message: string; param?: string };
  requestId: string;
  success?: false;
};

/** The one mapping from anything thrown to the JSON error envelope. Unknown errors say nothing internal. */
export function errorResponse(error: unknown, requestId: string, options: { privateApi: boolean }): Response {
  const known =
    error instanceof ServiceError
      ? error
      : new ServiceError(
          500,
          "api_error",
          "internal_error",
          `Something went wrong on our side. Quote request id ${requestId} if you contact support.`,
        );
  if (known !== error) log.error({ requestId, err: error }, "unhandled error");
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
