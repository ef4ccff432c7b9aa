import { z } from "zod";

/** POST /api/public/payments: the buyer picks how to pay a session. */
export const startPaymentSchema = z
  .strictObject({
    checkoutSessionId: z
      .string({ error: "must be a checkout session id" })
      .regex(/^ycs_[0-9A-Za-z]{24}$/, { error: "must be a checkout session id" }),
    network: z.string({ error: "must be a network id such as devnet or base" }).min(1).max(32),
    token: z.string({ error: "must be a token symbol such as USDC" }).min(1).max(10),
  })
  .meta({ id: "StartPayment" });

export type StartPaymentInput = z.output<typeof startPaymentSchema>;
