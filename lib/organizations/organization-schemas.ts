import {
  configureReceipts,
  configureRefunds,
  configureReports,
  configureSettlement,
  updateOrganization,
} from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { apiVersionField } from "../api-version/api-versions";
import { chainFamilyById } from "../chains/chain-families";
import {
  type SettlementNetwork,
  settlementNetworkFamilies,
  settlementNetworks,
} from "../chains/settlement-networks";
import { multilineText, oneLineText, recipientEmailField, text } from "../validation/fields";
import { refineContractInput } from "../validation/refine-contract-input";
import { webhookUrlField } from "../webhooks/webhook-endpoint-schemas";
import { brandingFields } from "./brand-schemas";

/** A wallet address on a settlement network, as its chain family spells it (an EVM one checksummed). */
function settlementAddress(network: SettlementNetwork) {
  const { addresses } = chainFamilyById(settlementNetworkFamilies[network]);
  return z.string({ error: `must be ${addresses.format}` }).transform((value, context) => {
    const parsed = addresses.parse(value);
    if ("address" in parsed) return parsed.address;
    context.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  });
}
const settlementAddresses = Object.fromEntries(
  settlementNetworks.map((network) => [network, settlementAddress(network)]),
) as Record<SettlementNetwork, ReturnType<typeof settlementAddress>>;

const capError = 'must be a USD amount such as "100.00" (0 to 999999999.99)';
const refundAgentDailyCapUsd = z
  .string({ error: capError })
  .regex(/^(0|[1-9]\d{0,8})(\.\d{1,2})?$/, { error: capError });

const graceDaysError = "must be a whole number of days from 0 to 30";
const subscriptionGraceDays = z
  .number({ error: graceDaysError })
  .int({ error: graceDaysError })
  .min(0, { error: graceDaysError })
  .max(30, { error: graceDaysError })
  .meta({ description: "Days a PAST_DUE subscription waits for its renewal payment before it is cancelled" });

/**
 * The merchant as its receipts name it; null clears a field. Every buyer reads them under the
 * merchant's name, so only the address has line breaks and none has control or text-direction
 * characters; the support email is checked as every address we show or send to is (which admits
 * neither).
 */
const merchantDetails = {
  legalName: oneLineText(200),
  legalAddress: multilineText(500),
  taxId: oneLineText(50),
  supportEmail: recipientEmailField,
};
const merchantDetailsFields = {
  legalName: merchantDetails.legalName.nullable().optional(),
  legalAddress: merchantDetails.legalAddress.nullable().optional(),
  taxId: merchantDetails.taxId.nullable().optional(),
  supportEmail: merchantDetails.supportEmail.nullable().optional(),
  receiptEmails: z.boolean({ error: "must be true or false" }).optional(),
};

/** A form's text input for a nullable field: empty (or blank) is null, which clears it. */
const emptyClears = (field: z.ZodType<string, string>) =>
  z
    .string({ error: "must be text" })
    .trim()
    .transform((value) => value || null)
    .pipe(field.nullable());

/**
 * The dashboard's receipts form (owners): empty inputs clear their field, and the checkbox is
 * sent as "on" when ticked and left out when not.
 */
export const receiptSettingsFormSchema = z.strictObject({
  legalName: emptyClears(merchantDetails.legalName),
  legalAddress: emptyClears(merchantDetails.legalAddress),
  taxId: emptyClears(merchantDetails.taxId),
  supportEmail: emptyClears(merchantDetails.supportEmail),
  receiptEmails: z
    .literal("on", { error: "must be ticked or left out" })
    .optional()
    .transform((ticked) => ticked === "on"),
});

const settlementWallet = z
  .strictObject({
    network: z.enum(settlementNetworks, { error: `must be one of ${settlementNetworks.join(", ")}` }),
    address: z.string({ error: "must be a wallet address on the network" }),
  })
  .transform((wallet, context) => {
    const address = settlementAddresses[wallet.network].safeParse(wallet.address);
    if (address.success) return { network: wallet.network, address: address.data };
    context.addIssue({ code: "custom", path: ["address"], message: address.error.issues[0].message });
    return z.NEVER;
  });

/**
 * PUT /api/private/organization/current: what is sent changes; settlementWallets replaces the list;
 * null clears a branding field. Its fields are its contract's and its parts'.
 */
export const updateOrganizationSchema = refineContractInput(
  [
    updateOrganization.input.body,
    configureSettlement.input.body,
    configureRefunds.input.body,
    configureReports.input.body,
    configureReceipts.input.body,
  ],
  {
    name: text(255).optional(),
    settlementWallets: z
      .array(settlementWallet, { error: "must be a list of {network, address}" })
      .max(settlementNetworks.length)
      .refine((wallets) => new Set(wallets.map((wallet) => wallet.network)).size === wallets.length, {
        error: "may name each network once",
      })
      .optional(),
    webhookUrl: webhookUrlField.nullable().optional(),
    // Upgrading the pinned API version: requests without X-Service-Version follow it at once.
    apiVersion: apiVersionField.optional(),
    subscriptionGraceDays: subscriptionGraceDays.optional(),
    refundAgentDailyCapUsd: refundAgentDailyCapUsd.optional().meta({
      description:
        "What agent credentials and OAuth tokens may refund to payers per UTC day, in USD (owners and API keys only)",
      example: "100.00",
    }),
    autoRefundOverpayments: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta({ description: "Refund the overpaid part of a confirmed invoice to its payer automatically" }),
    monthlyReportEmail: z.boolean({ error: "must be true or false" }).optional().meta({
      description:
        "Email last month's totals and payments report link to the owners on the 1st (owners and API keys only)",
    }),
    monthlyReportTo: z
      .string({ error: "must be an owner's email, or null for every owner" })
      .trim()
      .max(320)
      .transform((email) => email || null)
      .nullable()
      .optional()
      .meta({ description: "Only this owner's email gets it; null for every owner" }),
    ...brandingFields,
    ...merchantDetailsFields,
  },
).meta({ id: "UpdateOrganization" });

export type UpdateOrganizationInput = z.output<typeof updateOrganizationSchema>;

/**
 * The dashboard's wallet form: one address input per network, named by the network. It shows
 * every network that has a wallet, so like the API it replaces the list: an emptied input
 * removes that network's wallet.
 */
export const settlementWalletsFormSchema = z
  .strictObject(
    Object.fromEntries(
      settlementNetworks.map((network) => [network, settlementAddresses[network].optional()]),
    ) as Record<SettlementNetwork, z.ZodOptional<(typeof settlementAddresses)[SettlementNetwork]>>,
  )
  .transform(
    (addresses): UpdateOrganizationInput => ({
      settlementWallets: settlementNetworks.flatMap((network) => {
        const address = addresses[network];
        return address ? [{ network, address }] : [];
      }),
    }),
  );

/** The dashboard's grace period form: the number input arrives as text. */
export const subscriptionGraceFormSchema = z.strictObject({
  subscriptionGraceDays: z
    .string({ error: graceDaysError })
    .trim()
    .regex(/^\d{1,2}$/, { error: graceDaysError })
    .transform(Number)
    .pipe(subscriptionGraceDays),
});

/**
 * The dashboard's refund settings form (owners): the agents' daily cap as typed, and a checkbox,
 * which a browser sends as "on" when ticked and leaves out when not.
 */
export const refundSettingsFormSchema = z.strictObject({
  refundAgentDailyCapUsd,
  autoRefundOverpayments: z
    .literal("on", { error: "must be ticked or left out" })
    .optional()
    .transform((ticked) => ticked === "on"),
});
