import { randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import { type Address, createSolanaRpc, isSolanaError } from "@solana/kit";
import type { ChainFamily } from "../chain-family";
import type { NetworkConfig } from "../networks";
import { buildWalletTransfer, walletStandardChain } from "./build-wallet-transfer";
import { checkSolanaDestination } from "./check-solana-destination";
import { confirmSolanaPayer } from "./confirm-solana-payer";
import { estimateX402SettlementFee } from "./estimate-x402-settlement-fee";
import { payFromLocalTestWallet } from "./pay-from-local-test-wallet";
import { type SolanaRpc, solanaTransferReader } from "./read-solana-transfers";
import { solanaAddresses } from "./solana-addresses";
import { solanaServiceKey } from "./solana-keys";
import { solanaPaymentUri } from "./solana-payment-uri";
import { notWallets, solanaServiceTransfers, solCoin } from "./solana-service-transfers";
import { solanaX402Scheme } from "./solana-x402-scheme";
import { topUpLocalWallet } from "./top-up-local-wallet";

const clients = new Map<string, SolanaRpc>();

/** The receiving wallet of a network completed by completeNetwork; an error for one left without. */
function receiverOf(network: NetworkConfig): string {
  if (!network.receiver) throw new Error(`network ${network.id} has no receiving wallet`);
  return network.receiver;
}

/** The service wallets a network's configuration may name, for a tier that holds no key. */
const configuredWallets = [
  ["receiver", "receiving", "receiving"],
  ["feePayer", "feePayer", "fee payer"],
] as const;

/**
 * Solana (mainnet-beta, and the zero-setup `solana-local` chain), spoken through @solana/kit's
 * JSON-RPC client. Invoices pay one receiving wallet per network, each with a reference of its own
 * (Solana Pay): ed25519 has no public derivation, so a web tier holding no key could not derive an
 * address per invoice, and each address would need a token account whose rent someone pays.
 */
export const solanaFamily: ChainFamily<SolanaRpc> = {
  id: "solana",
  addresses: solanaAddresses,
  // A reference is any 32 bytes that no other invoice has: fresh random ones cannot be guessed ahead.
  paymentReceivers: (network, _keys, indexes) =>
    indexes.map(() => ({ address: receiverOf(network), reference: base58.encode(randomBytes(32)) })),
  paymentUri: (_network, request) => solanaPaymentUri(request),
  completeNetwork(network, keys) {
    const mnemonic = keys.hdMnemonic;
    // Configured wallets must be the signing role's own: the mnemonic's, where it is here.
    for (const [field, role, name] of configuredWallets) {
      const derived = mnemonic && solanaServiceKey(mnemonic, role).address;
      if (network[field] && derived && network[field] !== derived)
        throw new Error(
          `network ${network.id}'s "${field}" is not the ${name} wallet of SERVICE_HD_MNEMONIC (${derived})`,
        );
    }
    if (!network.receiver && !mnemonic)
      throw new Error(
        `network ${network.id} needs "receiver", the receiving wallet's address (the signing role derives it from the mnemonic)`,
      );
    if (!mnemonic) return network;
    return {
      ...network,
      receiver: solanaServiceKey(mnemonic, "receiving").address,
      feePayer: solanaServiceKey(mnemonic, "feePayer").address,
    };
  },
  positionName: "slot",
  sends: true,
  serviceTransfers: solanaServiceTransfers((network) => solanaFamily.client(network)),
  payFromTestWallet(network, payment) {
    return payFromLocalTestWallet(solanaFamily.client(network), network, payment);
  },
  async walletProblem(network, address) {
    const check = await checkSolanaDestination(solanaFamily.client(network), address);
    return check === "ok" ? null : notWallets[check];
  },
  // Only while the wallet holds no SOL, as on EVM: a merchant who spends its test USDC down sees
  // refunds wait as anywhere else.
  async fundDevnetWallet(network, address, tokens) {
    const rpc = solanaFamily.client(network);
    if (!network.devnet) return false;
    const { value: lamports } = await rpc.getBalance(address as Address, { commitment: "confirmed" }).send();
    if (lamports > 0n) return false;
    for (const token of network.tokens)
      if (token.address)
        await topUpLocalWallet(rpc, address, {
          mint: token.address,
          decimals: token.decimals,
          units: tokens * 10n ** BigInt(token.decimals),
        });
    return true;
  },
  confirmsPayer: (network, payment) => confirmSolanaPayer(solanaFamily.client(network), network, payment),
  walletStandard: {
    chain: walletStandardChain,
    transaction: (network, request) => buildWalletTransfer(solanaFamily.client(network), network, request),
  },
  caip2: (network) => `solana:${(network.genesisHash ?? "").slice(0, 32)}`,
  x402Transactions: solanaX402Scheme((network) => solanaFamily.client(network)),
  // Priced from a configured SOL/USD source (a feed on an EVM network, SERVICE_RATES): README.
  nativeCoin: () => solCoin,
  x402SettlementFee: (network) => estimateX402SettlementFee(solanaFamily.client(network)),
  client(network) {
    let client = clients.get(network.id);
    if (!client) {
      client = createSolanaRpc(network.rpcUrl) as SolanaRpc;
      clients.set(network.id, client);
    }
    return client;
  },
  transferReader: (client, network) => solanaTransferReader(client, network),
  // The kit's JSON-RPC and HTTP errors, and fetch's own when the node cannot be reached.
  isRpcError: (error) =>
    isSolanaError(error) || (error instanceof TypeError && error.message === "fetch failed"),
};
