import { parseCreateCheckoutSession } from "@/lib/checkout/checkout-session-schemas";
import { openCheckoutSession } from "@/lib/checkout/open-checkout-session";
import { db } from "@/lib/db/client";
import { anyJson, readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { hashRequest } from "@/lib/idempotency/hash-request";
import { parseIdempotencyKey } from "@/lib/idempotency/parse-idempotency-key";

export const POST = apiKeyRoute("checkoutSessions.create", async ({ request, organizationId }) => {
  const body = await readJson(request, anyJson);
  const input = parseCreateCheckoutSession(body);
  const key = parseIdempotencyKey(request.headers.get("idempotency-key"), {
    required: input.mode === "standalone",
  });
  const result = await openCheckoutSession(db(), {
    organizationId: organizationId,
    request: input,
    idempotency: key ? { organizationId: organizationId, key, requestHash: hashRequest(body) } : null,
  });
  return {
    status: result.status,
    body: result.body,
    headers: result.replayed ? { "Idempotent-Replayed": "true" } : undefined,
  };
});
