import { z } from "zod";
import { apiVersionField } from "../api-version/api-versions";
import { type SettlementNetwork, settlementNetworks } from "../chains/settlement-networks";
import { checksumAddressField } from "../validation/evm-address";
import { text } from "../validation/fields";
import { webhookUrlField } from "../webhooks/webhook-endpoint-schemas";
import { brandingFields } from "./brand-schemas";

const settlementAddress = checksumAddressField;

const graceDaysError = "must be a whole number of days from 0 to 30";
const subscriptionGraceDays = z
  .number({ error: graceDaysError })
  .int({ error: graceDaysError })
  .min(0, { error: graceDaysError })
  .max(30, { error: graceDaysError })
  .meta({ description: "Days a PAST_DUE subscription waits for its renewal payment before it is cancelled" });

const settlementWallet = z.strictObject({
  network: z.enum(settlementNetworks, { error: `must be one of ${settlementNetworks.join(", ")}` }),
  address: settlementAddress,
});

/**
 * PUT /api/private/organization/current: what is sent changes; settlementWallets replaces the list;
 * null clears a branding field.
 */
export const updateOrganizationSchema = z
  .strictObject({
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
    ...brandingFields,
  })
  .meta({ id: "UpdateOrganization" });

export type UpdateOrganizationInput = z.output<typeof updateOrganizationSchema>;

/**
 * The dashboard's wallet form: one address input per network, named by the network. It shows
 * every network that has a wallet, so like the API it replaces the list: an emptied input
 * removes that network's wallet.
 */
export const settlementWalletsFormSchema = z
  .strictObject(
    Object.fromEntries(
      settlementNetworks.map((network) => [network, settlementAddress.optional()]),
    ) as Record<SettlementNetwork, z.ZodOptional<typeof settlementAddress>>,
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
