import { createPaylink, disablePaylink, editPaylink, listPaylinks } from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { recurringField } from "../subscriptions/subscription-schemas";
import { amountField, currencyField, pagingQuery, refineAmountForCurrency, text } from "../validation/fields";
import { refineContractInput } from "../validation/refine-contract-input";

export const paylinkIdField = z.uuid({ error: "must be a paylink id (a UUID)" });

export const createPaylinkSchema = refineContractInput(createPaylink.input.body, {
  name: text(255),
  description: text(1000).optional(),
  amount: amountField,
  currency: currencyField,
  enabled: z.boolean({ error: "must be true or false" }).default(true),
  recurring: recurringField.optional().meta({ description: "Sell a subscription; omit for one payment" }),
})
  .superRefine(refineAmountForCurrency)
  .meta({ id: "CreatePaylink" });

/** Changes only what is sent; `description: null` clears it. Amount and currency change together. */
export const editPaylinkSchema = refineContractInput(editPaylink.input.body, {
  id: paylinkIdField,
  name: text(255).optional(),
  description: text(1000).nullable().optional(),
  amount: amountField.optional(),
  currency: currencyField.optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  recurring: recurringField
    .nullable()
    .optional()
    .meta({ description: "null makes it a one-time price; subscriptions already started keep theirs" }),
})
  .superRefine((value, context) => {
    if ((value.amount === undefined) !== (value.currency === undefined)) {
      const missing = value.amount === undefined ? "amount" : "currency";
      context.addIssue({
        code: "custom",
        path: [missing],
        message: "amount and currency must be sent together, so the price is never ambiguous",
      });
    }
    refineAmountForCurrency(value, context);
  })
  .meta({ id: "EditPaylink" });

export const disablePaylinkSchema = refineContractInput(disablePaylink.input.body, {
  id: paylinkIdField,
  confirm: z.boolean({ error: "must be true" }).optional(),
}).meta({ id: "DisablePaylink" });

export const listPaylinksQuery = refineContractInput(listPaylinks.input.query, pagingQuery.shape);
