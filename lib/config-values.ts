import { z } from "zod";
import { isLoopbackAddress } from "./net/client-address";

// The kinds of value configuration variables hold (lib/config.ts): each parses a variable's text
// and names what it expects in the error an operator reads.

export const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "must be one of true, false, 1, 0, yes, no",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

export const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

export const usdAmount = z
  .string()
  .regex(/^[0-9]{1,9}(\.[0-9]{1,6})?$/, { error: "must be a USD amount such as 5 or 2.50" });

export const wholeNumber = (
  min: number,
  max: number,
  error = `must be a whole number from ${min} to ${max}`,
) => z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });

export function isLoopbackHost(host: string) {
  return host === "localhost" || isLoopbackAddress(host);
}

export function isLocalUrl(url: string) {
  return isLoopbackHost(new URL(url).hostname.replace(/^\[|\]$/g, ""));
}

/** A JSON object in a variable, checked against `schema`; `message` names the expected shape. */
export function jsonRecord<T extends z.ZodType>(schema: T, message: string) {
  return z.string().transform((json, context): z.output<T> => {
    const parsed = schema.safeParse(
      (() => {
        try {
          return JSON.parse(json);
        } catch {
          return undefined;
        }
      })(),
    );
    if (!parsed.success) {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/**
 * Prices given by the operator (SERVICE_RATES) for assets no feed covers, typically fiat: each
 * with the time it was taken and how long it may be used, so a forgotten value stops quoting
 * instead of pricing at a made-up number.
 */
export const configuredRatesSchema = z.record(
  z.string().regex(/^[A-Z0-9]{2,10}\/USD$/),
  z.strictObject({
    rate: z
      .string()
      .regex(/^(0|[1-9]\d*)(\.\d+)?$/)
      .refine((value) => /[1-9]/.test(value)),
    updatedAt: z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
    maxAgeSeconds: z
      .number()
      .int()
      .min(1)
      .max(366 * 24 * 3600)
      .default(86_400),
  }),
);
