import { config } from "../config";

/** The network/token pairs a buyer can choose on the hosted page; testWallet marks the devnet's. */
export function paymentOptions() {
  return config().networks.flatMap((network) =>
    network.tokens.map((token) => ({
      network: network.id,
      networkName: network.name,
      token: token.symbol,
      testWallet: network.devnet === true,
    })),
  );
}
