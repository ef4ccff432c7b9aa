import { z } from "zod";
import { checkPositiveDecimal, pricingCurrencies } from "../money/decimal";

// Field schemas shared by request bodies. Messages complete the sentence "Invalid <param>: …".

export const currencyField = z.enum(Object.keys(pricingCurrencies) as [keyof typeof pricingCurrencies], {
  error: `must be one of ${Object.keys(pricingCurrencies).join(", ")}`,
});

export const amountField = z.string({ error: 'must be a decimal string such as "49.00", not a number' });

export const amountProblems = {
  not_a_decimal_string:
    'must be a plain decimal string such as "49.00" (no sign, exponent, spaces or leading zeros)',
  too_many_decimals: "has more decimal places than the currency allows",
  not_positive: "must be greater than zero",
  too_large: "is too large",
} as const;

/** Checks `amount` against the scale of `currency`, on an object that has both. */
export function refineAmountForCurrency(
  value: { amount?: string; currency?: keyof typeof pricingCurrencies },
  context: z.RefinementCtx,
) {
  if (value.amount === undefined || value.currency === undefined) return;
  const problem = checkPositiveDecimal(value.amount, pricingCurrencies[value.currency], 12);
  if (problem) {
    const message =
      problem === "too_many_decimals"
        ? `has more than ${pricingCurrencies[value.currency]} decimal places, the most ${value.currency} allows`
        : amountProblems[problem];
    context.addIssue({ code: "custom", path: ["amount"], message, input: value.amount });
  }
}

export const httpUrlField = z
  .url({ protocol: /^https?$/, error: "must be an absolute http:// or https:// URL" })
  .max(2048, { error: "must be at most 2048 characters" });

export const emailField = z
  .email({ error: "must be an email address" })
  .max(254, { error: "must be at most 254 characters" });

/**
 * An address we send email to, as stored and compared everywhere: one valid address, trimmed and
 * lower-case. Sign-in, invitations and agent signup all parse with this, so a list such as
 * `a@x.com,b@y.com` never reaches a mailer or a user row.
 */
export const recipientEmailField = z
  .string({ error: "must be an email address" })
  .trim()
  .toLowerCase()
  .pipe(emailField);

export const text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });

/**
 * Whether `value` has a character that makes text read otherwise than it is stored: a control
 * character (a line break unless `lineBreaks`) or a Unicode direction mark, embedding, override or
 * isolate (U+200E/F, U+202A–E, U+2066–9), with which "support@shop.example" can show reversed
 * text. Text every buyer reads under the merchant's name (receipts) is refused with it.
 */
function hasHiddenCharacter(value: string, lineBreaks: boolean): boolean {
  for (const character of value) {
    const code = character.codePointAt(0) as number;
    if (code === 0x0a && lineBreaks) continue;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
    if (code === 0x200e || code === 0x200f) return true;
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
  }
  return false;
}

/** `text(max)` on one line, without control or text-direction characters. */
export const oneLineText = (max: number) =>
  text(max).refine((value) => !hasHiddenCharacter(value, false), {
    error: "must be one line without control or text-direction characters",
  });

/**
 * `text(max)` whose lines are separated by line breaks (a form's \r\n is stored as \n), without
 * other control characters or text-direction characters.
 */
export const multilineText = (max: number) =>
  z
    .string({ error: "must be a string" })
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .pipe(text(max))
    .refine((value) => !hasHiddenCharacter(value, true), {
      error: "must be lines of text without control or text-direction characters",
    });

export const metadataLimits = { keys: 20, keyLength: 40, stringValueLength: 500 } as const;

/** Merchant metadata: a flat object of primitive values, within the documented limits. */
export const metadataField = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, { error: "keys may contain only letters, digits, _ . and -" })
      .max(metadataLimits.keyLength, {
        error: `keys must be at most ${metadataLimits.keyLength} characters`,
      }),
    z.union([z.string().max(metadataLimits.stringValueLength), z.number(), z.boolean(), z.null()], {
      error: `values must be strings (at most ${metadataLimits.stringValueLength} characters), numbers, booleans or null`,
    }),
    { error: "must be an object of primitive values" },
  )
  .refine((value) => Object.keys(value).length <= metadataLimits.keys, {
    error: `must have at most ${metadataLimits.keys} keys`,
  });

/** `page` and `rows` query parameters of list endpoints. */
const wholeNumberParam = (max: number, error: string) =>
  z.coerce.number({ error }).int({ error }).min(1, { error }).max(max, { error });

export const pagingQuery = z.strictObject({
  page: wholeNumberParam(1_000_000, "must be a whole number from 1 to 1000000").default(1),
  rows: wholeNumberParam(100, "must be a whole number from 1 to 100").default(20),
});
export type Paging = z.output<typeof pagingQuery>;
