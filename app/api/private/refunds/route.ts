import { actorOf } from "@/lib/authority/authorize";
import { db } from "@/lib/db/client";
import { anyJson, readJson } from "@/lib/http/read-json";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { hashRequest } from "@/lib/idempotency/hash-request";
import { parseIdempotencyKey } from "@/lib/idempotency/parse-idempotency-key";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { refundRequester } from "@/lib/refunds/refund-requester";
import { createRefundSchema, listRefundsQuery } from "@/lib/refunds/refund-schemas";
import { serializeRefund } from "@/lib/refunds/serialize-refund";
import { listPage } from "@/lib/validation/list-page";
import { parseOrThrow } from "@/lib/validation/validation-error";

export const POST = apiKeyRoute("refunds.create", async ({ request, organizationId, caller }) => {
  const body = await readJson(request, anyJson);
  const input = parseOrThrow(createRefundSchema, body);
  const key = parseIdempotencyKey(request.headers.get("idempotency-key"), { required: false });
  const result = await createRefund(db(), {
    organizationId,
    request: input,
    requestedBy: refundRequester(caller),
    idempotency: key ? { organizationId, key, requestHash: hashRequest(body) } : null,
    reader: actorOf(caller),
  });
  return {
    status: result.status,
    body: result.body,
    headers: result.replayed ? { "Idempotent-Replayed": "true" } : undefined,
  };
});

export const GET = apiKeyRoute("refunds.read", async ({ request, organizationId, caller }) => {
  const query = readQuery(request, listRefundsQuery);
  const { refunds, total } = await listRefunds(db(), organizationId, query);
  const reader = actorOf(caller);
  return {
    body: listPage(
      refunds.map((refund) => serializeRefund(refund, reader)),
      query,
      total,
    ),
  };
});
