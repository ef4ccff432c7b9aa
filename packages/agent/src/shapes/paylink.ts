import { z } from "zod";
import { decimalString, isoTimestamp, x402Url } from "./common";
import { recurringObject } from "./recurring";

export const paylinkObject = z
  .object({
    id: z.uuid(),
    object: z.literal("paylink"),
    name: z.string(),
    description: z.string().nullable(),
    amount: decimalString,
    currency: z.string(),
    enabled: z.boolean(),
    recurring: recurringObject,
    url: z.string().meta({ description: "Where buyers pay this paylink; reusable" }),
    x402Url: x402Url("paylink"),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .meta({ id: "Paylink" });
