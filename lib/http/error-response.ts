import { toServiceError } from "../errors";

export type ErrorEnvelope = {
  error: { type: string; code: string; message: string; param?: string };
  requestId: string;
  success?: false;
};

/** The one mapping from anything thrown to the JSON error envelope. */
export function errorResponse(error: unknown, requestId: string, options: { privateApi: boolean }): Response {
  const { status, headers, body } = errorEnvelope(error, requestId, options);
  return Response.json(body, { status, headers });
}

/** errorResponse's parts, for a server that writes them itself (scripts/serve.ts). */
export function errorEnvelope(error: unknown, requestId: string, options: { privateApi: boolean }) {
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
  return { status: known.status, headers: known.headers, body };
}
