import { chainFamilyById } from "../chains/chain-families";
import type { AddressRules } from "../chains/chain-family";
import { networkPresets } from "../chains/networks";
import { settlementNetworkFamilies, settlementNetworks } from "../chains/settlement-networks";
import { config } from "../config";

export type WalletNetwork = {
  id: string;
  name: string;
  accepting: boolean;
  /** How its addresses are typed: the family's format, the input's placeholder and pattern. */
  address: Pick<AddressRules, "format" | "input">;
};

/**
 * The networks to ask a settlement address for: those buyers can pay on, plus any that already
 * has a wallet (so the settings form, which replaces the list, shows everything it would keep or
 * remove). All settlement networks when neither gives one.
 */
export function listWalletNetworks(wallets: { network: string }[]): WalletNetwork[] {
  const configured = config().networks;
  const shown = new Set<string>([...configured.map((n) => n.id), ...wallets.map((w) => w.network)]);
  const ids = settlementNetworks.filter((id) => shown.has(id));
  return (ids.length > 0 ? ids : settlementNetworks).map((id) => ({
    id,
    name:
      configured.find((n) => n.id === id)?.name ??
      networkPresets[id]?.name ??
      (id === "devnet" ? "Devnet (local test chain)" : id),
    accepting: configured.some((n) => n.id === id),
    address: (({ format, input }) => ({ format, input }))(
      chainFamilyById(settlementNetworkFamilies[id]).addresses,
    ),
  }));
}
