import type { NextRequest } from "next/server";
import { config } from "../config";
import { invalidRequest, ServiceError, unauthenticated } from "../errors";
import { publicRoute, unknownApiPath } from "./route";

type Handler = (request: NextRequest, context: unknown) => Promise<Response>;

/** What the endpoint needs to know of the Inngest client: whether it checks signatures. */
type Client = { mode: "cloud" | "dev"; signingKey: string | undefined };

const signatureHeader = "x-inngest-signature";

/**
 * The Inngest SDK's endpoint (`serve`), answering like the rest of the API where it is not
 * talking to an Inngest server. With the in-process job engine nothing calls it: it is an unknown
 * path. With Inngest as the engine but no signing key (outside the SDK's dev mode) the SDK
 * refuses everything with a 500, so the endpoint says the engine is unavailable. An unsigned or
 * badly signed request, a body the SDK cannot parse, and a failed sync (PUT, when the Inngest
 * server cannot be reached) get the envelope. A POST whose signature the SDK accepted (or any POST
 * in dev mode, where the SDK checks none) keeps the SDK's answer: its status and headers tell the
 * Inngest server whether to retry a step.
 */
export function inngestRoute(client: Client, handler: Handler) {
  return publicRoute(async ({ request }) => {
    if (config().jobEngine !== "inngest") throw unknownApiPath(request);
    const checksSignatures = client.mode === "cloud";
    if (checksSignatures && !client.signingKey) {
      throw new ServiceError(
        503,
        "api_error",
        "jobs_engine_unavailable",
        "The job engine's endpoint is not configured (no signing key).",
        undefined,
        { "Retry-After": "60" },
      );
    }
    let response: Response;
    try {
      response = await handler(request, undefined);
    } catch {
      // The SDK parses the body before anything else and throws on one that is not JSON.
      throw invalidRequest("invalid_json", "The request body is not valid JSON.");
    }
    if (response.status < 400) return response;
    if (response.status === 401) {
      throw unauthenticated("invalid_signature", "The request is not signed by the job engine.");
    }
    const accepted = request.method === "POST" && (!checksSignatures || request.headers.has(signatureHeader));
    if (accepted) return response;
    if (response.status >= 500) {
      throw new ServiceError(
        503,
        "api_error",
        "jobs_engine_unavailable",
        "The job engine could not be reached. Try again shortly.",
        undefined,
        { "Retry-After": "60" },
      );
    }
    throw invalidRequest("invalid_request", "The job engine's endpoint could not use this request.");
  });
}
