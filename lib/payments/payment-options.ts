import { config } from "../config";

/** A network the buyer can pay on, with its tokens; testWallet marks the devnet. */
export type PaymentNetworkOption = {
  network: string;
  networkName: string;
  tokens: string[];
  testWallet: boolean;
};

/** The networks and tokens a buyer can choose on the hosted page, grouped by network. */
export function paymentOptions(): PaymentNetworkOption[] {
  return config().networks.map((network) => ({
    network: network.id,
    networkName: network.name,
    tokens: network.tokens.map((token) => token.symbol),
    testWallet: network.devnet === true,
  }));
}
