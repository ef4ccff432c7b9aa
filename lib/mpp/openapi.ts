import type { OperationSpec } from "../openapi/operation-spec";
import { x402Operations } from "../x402/openapi";
import { mppIntent, mppMethod } from "./mpp-challenges";

const mppFlow =
  "MPP on the same URL (the \"Payment\" HTTP authentication scheme, as mppx's EVM charge server speaks it): the 402 also carries one `WWW-Authenticate: Payment` challenge (method `evm`, intent `charge`) per x402 option on an EIP-3009 token, for the same quote, and is an RFC 9457 problem document (`application/problem+json`). An MPP client sends `Authorization: Payment <credential>` (an EIP-3009 authorization whose nonce is keccak256 of the challenge's id and realm): it is settled like the x402 payment, once whichever protocol carries the authorization, and answered 200 with `Payment-Receipt`. A refused credential (malformed, a challenge not ours or expired, used already: `credential_used`) is 402 with a fresh challenge and the problem type saying why.";

/**
 * The x402 operations as machines discover them: MPP's `x-payment-info` (what `mppx validate` and
 * MPP clients read). The price is each paylink's or session's own, in any currency, so no amount
 * is stated (`null`): the 402 quotes it in the token's base units.
 */
export const paidOperations: OperationSpec[] = x402Operations.map((operation) => ({
  ...operation,
  description: `${operation.description} ${mppFlow}`,
  extensions: {
    "x-payment-info": {
      method: mppMethod,
      intent: mppIntent,
      amount: null,
      description: operation.summary,
    },
  },
}));
