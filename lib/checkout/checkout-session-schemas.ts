import { z } from "zod";
import { invalidRequest } from "../errors";
import { recurringField } from "../subscriptions/subscription-schemas";
import {
  amountField,
  currencyField,
  emailField,
  httpUrlField,
  metadataField,
  refineAmountForCurrency,
  text,
} from "../validation/fields";
import { parseOrThrow } from "../validation/validation-error";

const expiresInMinutes = z
  .number({ error: "must be a whole number of minutes from 5 to 1440" })
  .int({ error: "must be a whole number of minutes from 5 to 1440" })
  .min(5, { error: "must be a whole number of minutes from 5 to 1440" })
  .max(1440, { error: "must be a whole number of minutes from 5 to 1440" });

// A return URL is a URI template: `{CHECKOUT_SESSION_ID}` is not valid in a URI, and the URL
// parser accepts (and escapes) more than RFC 6570 allows, so the document gives a pattern, not
// `format: uri` or `uri-template`, which would make validating clients refuse correct requests.
const returnUrlField = httpUrlField.meta({
  format: undefined,
  pattern: "^[\\u0000-\\u0020]*[Hh][Tt][Tt][Pp][Ss]?://",
  description: "Absolute http(s) URL; `{CHECKOUT_SESSION_ID}` is replaced by the session id",
  example: "https://shop.example/thanks?session={CHECKOUT_SESSION_ID}",
});

const sharedFields = {
  customerEmail: emailField.optional(),
  customerName: text(255).optional(),
  clientReferenceId: text(255).optional(),
  merchantOrderId: text(255).optional(),
  metadata: metadataField.optional(),
  successUrl: returnUrlField.optional(),
  cancelUrl: returnUrlField.optional(),
  expiresInMinutes: expiresInMinutes.default(60),
  // The payment starts with the session (lib/checkout/open-checkout-session.ts): a merchant or
  // agent hands the buyer the address and wallet link itself, as on a Solana Pay terminal.
  network: z
    .string({ error: "must be a network id such as solana or base" })
    .min(1, { error: "must be a network id such as solana or base" })
    .max(32, { error: "must be a network id such as solana or base" })
    .optional()
    .meta({ description: "With token: start the payment on this network now", example: "base" }),
  token: z
    .string({ error: "must be a token symbol such as USDC" })
    .min(1, { error: "must be a token symbol such as USDC" })
    .max(10, { error: "must be a token symbol such as USDC" })
    .optional()
    .meta({ description: "With network: the token to pay in", example: "USDC" }),
};

/** A standalone session: the merchant sends the final amount. Unknown fields are rejected. */
export const standaloneSessionSchema = z
  .strictObject({
    amount: amountField,
    currency: currencyField,
    description: text(1000).optional(),
    recurring: recurringField.optional(),
    ...sharedFields,
  })
  .superRefine(refineAmountForCurrency)
  .meta({ id: "CreateStandaloneCheckoutSession" });

/** A paylink's session: amount and currency come from the paylink. */
export const paylinkSessionSchema = z
  .strictObject({
    paylinkId: z.uuid({ error: "must be a paylink id (a UUID)" }),
    ...sharedFields,
  })
  .meta({ id: "CreatePaylinkCheckoutSession" });

export const createCheckoutSessionSchema = z.union([standaloneSessionSchema, paylinkSessionSchema]);

export type CreateCheckoutSessionInput =
  | ({ mode: "standalone" } & z.output<typeof standaloneSessionSchema>)
  | ({ mode: "paylink" } & z.output<typeof paylinkSessionSchema>);

/** The body's mode is decided by the presence of paylinkId; each mode then parses strictly. */
export function parseCreateCheckoutSession(body: unknown): CreateCheckoutSessionInput {
  const request = parseSessionMode(body);
  for (const [given, missing] of [
    ["network", "token"],
    ["token", "network"],
  ] as const)
    if (request[given] !== undefined && request[missing] === undefined)
      throw invalidRequest("parameter_missing", `${missing} is required with ${given}.`, missing);
  return request;
}

function parseSessionMode(body: unknown): CreateCheckoutSessionInput {
  if (body !== null && typeof body === "object" && !Array.isArray(body) && "paylinkId" in body) {
    for (const param of ["amount", "currency"] as const) {
      if (param in body) {
        throw invalidRequest(
          "parameter_not_allowed",
          `A paylink-backed session takes its price from the paylink; remove ${param}.`,
          param,
        );
      }
    }
    return { mode: "paylink", ...parseOrThrow(paylinkSessionSchema, body) };
  }
  return { mode: "standalone", ...parseOrThrow(standaloneSessionSchema, body) };
}
