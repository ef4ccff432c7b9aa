import { z } from "zod";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import { x402PaymentObject, x402PaymentRequiredObject } from "./x402-objects";

const paymentSignature = z.object({
  "PAYMENT-SIGNATURE": z
    .string()
    .optional()
    .meta({ description: "x402 v2: the base64 JSON PaymentPayload; without it, the answer is 402" }),
});

const flow =
  "x402 v2 over HTTP: without `PAYMENT-SIGNATURE` the answer is 402 with the options in the `PAYMENT-REQUIRED` header (base64 JSON: one `exact` option per network's EIP-3009 USDC, each paying a fresh deposit address at a signed quote, valid 10 minutes; nothing is stored). An x402 client (e.g. `@x402/fetch`) pays one and sends it again in `PAYMENT-SIGNATURE`: the payment is verified, its session and invoice created, the transfer settled once, and the answer is 200 with `PAYMENT-RESPONSE` (success, transaction, network, payer). The same payment sent again answers the same result; the same authorization sent to another resource is 409 `authorization_used`. A refused payment (invalid, expired, facilitator unavailable) is 402 again with `error` and a fresh quote; nothing is marked paid. A payment whose transfer may still land (sent and not yet mined, or the facilitator's answer lost) is 503 `settlement_pending` with Retry-After: send the same payment again then, never a new one. The payment is then confirmed by the watcher like any other (`payment.confirmed`).";

const responses = (what: string) => ({
  200: { description: `Paid: ${what}, and the payment (header PAYMENT-RESPONSE)`, schema: x402PaymentObject },
  402: {
    description:
      "Payment required (header PAYMENT-REQUIRED), or the payment sent was refused (`error`, and header PAYMENT-RESPONSE with `success: false`)",
    schema: x402PaymentRequiredObject,
  },
});

export const x402Operations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/x402/paylinks/{id}",
    operationId: "payPaylinkX402",
    summary: "Pay a paylink over x402",
    description: `${flow} A recurring paylink's payment is its first period; the subscription starts once it confirms. Disabled or unknown paylinks are 404.`,
    tags: ["x402"],
    auth: ["none"],
    params: z.object({ id: z.string().meta({ example: "5b0f3c1e-8a52-4d8e-9b1f-2c7d3e4f5a6b" }) }),
    headers: paymentSignature,
    responses: { ...responses("the new checkout session"), ...errorResponses(404, 409, 429, 503) },
  },
  {
    method: "get",
    path: "/api/x402/checkout-sessions/{id}",
    operationId: "payCheckoutSessionX402",
    summary: "Pay a checkout session over x402",
    description: `${flow} A session whose payment already started on an EIP-3009 token is offered only that token, for what is still due, at its deposit address. Paid: 409 \`session_already_paid\`; expired: 410 \`session_expired\`.`,
    tags: ["x402"],
    auth: ["none"],
    params: z.object({ id: z.string().meta({ example: "ycs_4fQh0r7Xq1s9bT2mN8kLp3Zy" }) }),
    headers: paymentSignature,
    responses: { ...responses("the session"), ...errorResponses(404, 409, 410, 429, 503) },
  },
];
