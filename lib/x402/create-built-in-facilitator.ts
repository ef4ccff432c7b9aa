import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SupportedResponse } from "@x402/core/types";
import { type ExactEIP3009Payload, isEIP3009Payload, isPermit2Payload } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { Address, Hex } from "viem";
import { chainFamily } from "../chains/chain-families";
import { clientFor } from "../chains/evm/evm-client";
import { isContractAddress } from "../chains/is-contract-address";
import type { NetworkConfig } from "../chains/networks";
import { evmChainId } from "../chains/networks";
import type { Db } from "../db/client";
import { sweeperKeysFromMnemonic } from "../sweeps/sweeper-keys";
import { createFacilitatorSigner } from "./create-facilitator-signer";
import { createTransactionFacilitator } from "./create-transaction-facilitator";
import { readTransferCall } from "./read-transfer-call";
import { x402Networks } from "./x402-networks";

/** The authorization a settlement would carry out, and where to. */
export type X402PayeeCheck = { network: string; asset: string; payer: string; nonce: string; payTo: string };
/** An authorization (network id, token, payer, nonce: lowercase) as its X402Settlement row is keyed. */
export type X402AuthorizationKey = Omit<X402PayeeCheck, "payTo">;

/**
 * Whether `payment` pays a deposit address of one of this service's organizations that is awaiting
 * exactly this authorization: the web tier records it (SETTLING) before asking for settlement.
 */
export const ownX402Payee =
  (database: Db) =>
  async ({ payTo, ...key }: X402PayeeCheck): Promise<boolean> =>
    (await database.x402Settlement.count({ where: { ...key, payTo, status: "SETTLING" } })) === 1;

/**
 * Records `transaction` on the authorization's SETTLING row before it is broadcast: true for the
 * first transaction only, so one authorization is sent once (a copy of the settlement, or a
 * takeover after a lost answer, finds it recorded and sends nothing; the web tier then follows
 * the recorded one on chain).
 */
export const recordX402Broadcast =
  (database: Db) =>
  async (key: X402AuthorizationKey, transaction: string): Promise<boolean> =>
    (
      await database.x402Settlement.updateMany({
        where: { ...key, status: "SETTLING", transaction: null },
        data: { transaction },
      })
    ).count === 1;

/**
 * The transactions recorded on the SETTLING rows of `networks` (ids), oldest first: a transaction
 * of the facilitator wallet that another process left unmined is looked for among them
 * (lib/x402/find-facilitator-transaction.ts). Its nonce is the lowest unmined, and every later
 * settlement's row is newer, so the oldest are kept.
 */
export const recordedX402Broadcasts =
  (database: Db) =>
  async (networks: string[]): Promise<Hex[]> =>
    (
      await database.x402Settlement.findMany({
        where: { network: { in: networks }, status: "SETTLING", transaction: { not: null } },
        orderBy: { createdAt: "asc" },
        take: 50,
        select: { transaction: true },
      })
    ).map((row) => row.transaction as Hex);

/**
 * The signing role's x402 facilitator: x402's own facilitator with its EVM `exact` scheme, one
 * registration per configured network with an EIP-3009 token, each signing with that chain's
 * facilitator wallet (lib/sweeps/sweeper-keys.ts). It takes only what it was set up for: v2, the
 * `exact` scheme, an EIP-3009 authorization, for one of the configured EIP-3009 tokens. Its gas
 * pays for nothing else (another token, Permit2, a wallet deployment), and it settles only to a
 * payee `ownsPayee` vouches for (`ownX402Payee`: a deposit address of this service's own
 * organizations awaiting that very authorization), so it is no gas relay for any token holder.
 * Its payers sign with a key: a contract's signature (an EIP-7702 delegated account's too) is its
 * code's answer (ERC-1271), which may say yes to verify's simulation and no to the settlement,
 * after the wallet paid the gas.
 */
export function createBuiltInFacilitator(options: {
  mnemonic: string;
  networks: NetworkConfig[];
  ownsPayee: (payment: X402PayeeCheck) => Promise<boolean>;
  recordsBroadcast: (key: X402AuthorizationKey, transaction: string) => Promise<boolean>;
  /** The transactions recorded on open settlements of these networks (`recordedX402Broadcasts`). */
  recordedBroadcasts: (networks: string[]) => Promise<Hex[]>;
  /**
   * The database its web tier records payments in: given, payments by transaction (Solana) are
   * settled too, for a web tier without keys (lib/x402/create-transaction-facilitator.ts).
   */
  database?: () => Db;
}): FacilitatorClient {
  const { database } = options;
  const transactions = database && createTransactionFacilitator({ ...options, database });
  const keys = sweeperKeysFromMnemonic(options.mnemonic);
  const assets = x402Networks(options.networks);
  const facilitator = new x402Facilitator();
  const chains = new Set<number>();
  // Only the networks with an EIP-3009 asset: EVM ones, each chain once.
  for (const network of options.networks.filter((candidate) =>
    assets.some((asset) => asset.networkId === candidate.id),
  )) {
    const chainId = evmChainId(network);
    if (chains.has(chainId)) continue;
    chains.add(chainId);
    // Every configured network of the chain: one wallet holds the nonces of all.
    const chainNetworks = options.networks
      .filter((candidate) => candidate.chainId === chainId)
      .map((candidate) => candidate.id);
    const signer = createFacilitatorSigner(network, keys.facilitatorWallet(chainId), {
      beforeBroadcast: (sent) => beforeBroadcast(network, sent),
      recordedBroadcasts: () => options.recordedBroadcasts(chainNetworks),
    });
    facilitator.register(chainFamily(network).caip2(network), new ExactEvmScheme(signer));
  }

  /**
   * A settlement's transaction goes out only once recorded on its row (`recordsBroadcast`); its gas
   * pays for nothing but an authorization's transfer.
   */
  async function beforeBroadcast(network: NetworkConfig, sent: { to: Address; data: Hex; hash: Hex }) {
    const transfer = readTransferCall(sent.data);
    if (!transfer) throw new Error(`x402 facilitator sends no ${sent.data.slice(0, 10)}`);
    const key = { network: network.id, asset: sent.to.toLowerCase(), ...transfer };
    if (!(await options.recordsBroadcast(key, sent.hash)))
      throw new Error("x402 settlement not awaited, or its transaction already sent");
  }

  /** Why this facilitator will not take the payment, in x402's error codes; undefined when it will. */
  function refusal(payload: PaymentPayload, requirements: PaymentRequirements): string | undefined {
    if (payload.x402Version !== 2) return "invalid_x402_version";
    if (requirements.scheme !== "exact" || payload.accepted.scheme !== "exact") return "unsupported_scheme";
    const accepted = assets.some(
      (asset) =>
        asset.network === requirements.network &&
        asset.asset.toLowerCase() === String(requirements.asset).toLowerCase(),
    );
    if (!accepted) return "invalid_payment_requirements";
    const inner = payload.payload as object | null;
    if (
      typeof inner !== "object" ||
      inner === null ||
      isPermit2Payload(inner as never) ||
      !isEIP3009Payload(inner as never)
    )
      return "invalid_payload";
    return undefined;
  }

  /**
   * `payer_not_supported` when the authorization's signer has code, an EIP-7702 delegated account
   * included: the token checks its signature by the delegate's ERC-1271 answer, which may turn to
   * no once our transfer waits in the mempool (a reverted settlement whose gas we paid). Undefined
   * for a plain key's account. An unreadable chain throws.
   */
  async function payerRefusal(payload: PaymentPayload, requirements: PaymentRequirements) {
    const asset = assets.find((candidate) => candidate.network === requirements.network);
    // refusal() found the requirements' asset, so its network is configured.
    const network = options.networks.find((candidate) => candidate.id === asset?.networkId) as NetworkConfig;
    const { authorization } = payload.payload as ExactEIP3009Payload;
    const contract = await isContractAddress(clientFor(network), String(authorization.from), {
      delegated: "contract",
    });
    return contract ? "payer_not_supported" : undefined;
  }

  /** The settlement's payee is one this service vouches for, with the authorization it awaits. */
  async function ownPayee(payload: PaymentPayload, requirements: PaymentRequirements) {
    const asset = assets.find(
      (candidate) =>
        candidate.network === requirements.network &&
        candidate.asset.toLowerCase() === String(requirements.asset).toLowerCase(),
    );
    const { authorization } = payload.payload as ExactEIP3009Payload;
    // The authorization's own recipient is the facilitator's check (recipient mismatch).
    return (
      asset !== undefined &&
      (await options.ownsPayee({
        network: asset.networkId,
        asset: asset.asset.toLowerCase(),
        payer: String(authorization.from).toLowerCase(),
        nonce: String(authorization.nonce).toLowerCase(),
        payTo: requirements.payTo.toLowerCase(),
      }))
    );
  }

  return {
    verify: async (payload, requirements) => {
      if (transactions?.handles(requirements)) return transactions.verify(payload, requirements);
      const reason = refusal(payload, requirements) ?? (await payerRefusal(payload, requirements));
      if (reason) return { isValid: false, invalidReason: reason };
      return facilitator.verify(payload, requirements);
    },
    settle: async (payload, requirements) => {
      if (transactions?.handles(requirements)) return transactions.settle(payload, requirements);
      const reason = refusal(payload, requirements) ?? (await payerRefusal(payload, requirements));
      if (reason)
        return { success: false, errorReason: reason, transaction: "", network: requirements.network };
      if (!(await ownPayee(payload, requirements)))
        return {
          success: false,
          errorReason: "payee_not_accepted",
          transaction: "",
          network: requirements.network,
        };
      return facilitator.settle(payload, requirements);
    },
    getSupported: async () => {
      const supported = facilitator.getSupported() as SupportedResponse;
      return { ...supported, kinds: [...supported.kinds, ...(transactions?.kinds() ?? [])] };
    },
  };
}
