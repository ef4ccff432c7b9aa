import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import type { z } from "zod";
import { toServiceError } from "../errors";
import { clientAddress, clientLimitKey } from "../net/client-address";
import { consumeRateLimit } from "../rate-limit/rate-limit";
import { parseOrThrow } from "../validation/validation-error";
import { formFields } from "./form-fields";

// The caller kind of a hosted page's form (a buyer, signed out): the public budget per client
// address, as the public API counts it, then a zod schema from lib and one domain function. The
// page translates the answer's error code, so the code and the field travel with the message.

export type BuyerActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; param?: string } };

export function buyerAction<S extends z.ZodType, T>(schema: S, action: (input: z.output<S>) => Promise<T>) {
  return async (_previous: BuyerActionResult<T> | null, form: FormData): Promise<BuyerActionResult<T>> => {
    try {
      await consumeRateLimit("publicIp", clientLimitKey(clientAddress(await headers())));
      return { ok: true, data: await action(parseOrThrow(schema, formFields(form))) };
    } catch (error) {
      const known = toServiceError(error, randomUUID());
      return { ok: false, error: { code: known.code, message: known.message, param: known.param } };
    }
  };
}
