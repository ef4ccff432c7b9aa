import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { settlementNetworks } from "../chains/settlement-networks";
import { text } from "../http/fields";
import { webhookUrlField } from "../webhooks/webhook-endpoint-schemas";

const settlementWallet = z.strictObject({
  network: z.enum(settlementNetworks, { error: `must be one of ${settlementNetworks.join(", ")}` }),
  address: z
    .string({ error: "must be an EVM address (0x followed by 40 hex digits)" })
    .refine((value) => isAddress(value, { strict: false }), {
      error: "must be an EVM address (0x followed by 40 hex digits)",
    })
    // Mixed case carries an EIP-55 checksum; a typo in it must not send money elsewhere.
    .refine((value) => isAddress(value), {
      error: "has a wrong EIP-55 checksum (check the mixed-case letters)",
    })
    .transform((value) => getAddress(value)),
});

/** PUT /api/private/organization/current: what is sent changes; settlementWallets replaces the list. */
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
  })
  .meta({ id: "UpdateOrganization" });

export type UpdateOrganizationInput = z.output<typeof updateOrganizationSchema>;
