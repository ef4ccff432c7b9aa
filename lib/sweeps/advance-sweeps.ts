import { type Address, encodeFunctionData, erc20Abi, type Hex, type PublicClient } from "viem";
import { readEvmBalance } from "../chains/evm/read-evm-balance";
import { evmChainId, findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { fromBaseUnits, toBaseUnits } from "../money/decimal";
import { estimateTransferGas, nativeTransferGas } from "../signer/estimate-transfer-gas";
import { checkSweepDestination, type DerivedServiceWallets } from "./check-sweep-destination";
import { type AdvanceResult, loadOpenSweeps } from "./load-open-sweeps";
import type { SweepStatus } from "./sweep-state";
import {
  depositAccount,
  failSweep as fail,
  followSweep as follow,
  type Sweep,
  type SweepContext,
  signForSweep as sign,
  transitionSweep as transition,
} from "./sweep-transactions";
import type { SweeperKeys } from "./sweeper-keys";

// The sweeper's pass over a network's open sweeps. Every transaction goes through the signing
// role's one implementation (lib/signer/, via ./sweep-transactions.ts): recorded with the sweep's
// new status before it is broadcast, so no sweep ever sends twice, even across a crash.

/** The gas top-up covers the transfer at this multiple of the fee, headroom for one bump. */
const topUpFeeMultiple = 2n;

export type AdvanceOptions = {
  keys: SweeperKeys;
  now?: Date;
  /** A transaction still unmined after this long is replaced with a higher fee. */
  stuckAfterMs?: number;
  /**
   * The operator's pin (SERVICE_SWEEP_DESTINATIONS): per network, the only addresses a sweep may
   * pay. Absent: the wallet in force is the only check.
   */
  destinations?: Record<string, string[]>;
  /** Called between recording a transaction and broadcasting it (tests: a crash in between). */
  beforeBroadcast?: (hash: Hex) => void | Promise<void>;
};

type Context = SweepContext & { destinations?: Record<string, string[]> };

const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

/** The signer's own wallets on this chain (sweeper-keys.ts), none of which a sweep may pay. */
const derivedWallets =
  ({ keys, network }: Context): DerivedServiceWallets =>
  (refundWalletIndex) => {
    const chainId = evmChainId(network);
    return [
      { kind: "gas wallet", address: keys.gasWallet(chainId).address },
      { kind: "facilitator wallet", address: keys.facilitatorWallet(chainId).address },
      { kind: "refund wallet", address: keys.refundWallet(refundWalletIndex, chainId).address },
    ];
  };

/** One pass over the network's open sweeps; returns how many ended the pass in each status. */
export async function advanceSweeps(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  options: AdvanceOptions,
): Promise<AdvanceResult> {
  const context: Context = {
    database,
    network,
    client,
    keys: options.keys,
    destinations: options.destinations,
    beforeBroadcast: options.beforeBroadcast,
    now: options.now ?? new Date(),
    stuckAfterMs: options.stuckAfterMs ?? Math.max(3 * (network.blockTimeMs ?? 12_000), 30_000),
    gasWallet: options.keys.gasWallet(evmChainId(network)),
  };
  return loadOpenSweeps(database, network, (sweep) => advanceSweep(context, sweep));
}

async function advanceSweep(context: Context, sweep: Sweep): Promise<SweepStatus> {
  const token = findToken(context.network, sweep.token);
  if (!token) return fail(context, sweep, `the network no longer lists ${sweep.token}`);
  switch (sweep.status) {
    case "PENDING":
    case "DEFERRED":
      return start(context, sweep, token);
    case "FUNDING": {
      const funding = await follow(context, sweep, "FUNDING");
      if (funding === "reverted") return fail(context, sweep, "the gas top-up reverted");
      if (funding === "waiting") return "FUNDING";
      return sendTokenTransfer(context, sweep, token);
    }
    case "SUBMITTED": {
      const transfer = await follow(context, sweep, "TRANSFER");
      if (transfer === "reverted") return fail(context, sweep, "the transfer reverted");
      if (transfer === "waiting") return "SUBMITTED";
      const head = await context.client.getBlockNumber();
      if (head - transfer.blockNumber + 1n < BigInt(context.network.confirmations)) return "SUBMITTED";
      await transition(context, sweep, "confirm", {
        confirmedAt: context.now,
      });
      return "CONFIRMED";
    }
    default:
      return sweep.status;
  }
}

/** Starts a planned (or deferred) sweep: the native transfer, or the ERC-20 sweep's gas top-up. */
async function start(context: Context, planned: Sweep, token: TokenConfig): Promise<SweepStatus> {
  const sweep = await checkSweepDestination(context, planned, context.destinations, derivedWallets(context));
  if (!sweep) return "DEFERRED";
  const { client } = context;
  const from = sweep.fromAddress as Address;
  const amount = toBaseUnits(sweep.amount.toFixed(), token.decimals);
  const fees = await client.estimateFeesPerGas();
  if (!token.address) {
    const balance = await client.getBalance({ address: from });
    if (balance < amount)
      return fail(
        context,
        sweep,
        `the deposit address holds ${fromBaseUnits(balance, 18)}, less than the ledger's ${sweep.amount}`,
      );
    const value = amount - nativeTransferGas * fees.maxFeePerGas;
    if (value <= 0n) return fail(context, sweep, "the value is less than the fee of moving it");
    await sign(
      context,
      sweep,
      "start_native",
      "TRANSFER",
      depositAccount(context, sweep),
      {
        to: sweep.toAddress as Address,
        value,
        gas: nativeTransferGas,
        ...fees,
      },
      { amountSent: fromBaseUnits(value, token.decimals) },
    );
    return "SUBMITTED";
  }

  const held = await readEvmBalance(client, from, token.address);
  if (held < amount)
    return fail(
      context,
      sweep,
      `the deposit address holds ${fromBaseUnits(held, token.decimals)} ${token.symbol}, less than the ledger's ${sweep.amount}`,
    );
  const gas = await estimateTransferGas(context.client, {
    token: token.address as Address,
    from: sweep.fromAddress as Address,
    to: sweep.toAddress as Address,
    amount,
  });
  const coin = await client.getBalance({ address: from });
  const need = gas * fees.maxFeePerGas * topUpFeeMultiple - coin;
  if (need <= 0n) {
    // Already holds enough coin for its fee (an earlier top-up's change): no top-up needed.
    await transition(context, sweep, "start_funding", {});
    return sendTokenTransfer(context, { ...sweep, status: "FUNDING" }, token);
  }
  const gasBalance = await client.getBalance({ address: context.gasWallet.address });
  const needed = need + nativeTransferGas * fees.maxFeePerGas;
  if (gasBalance < needed) {
    const reason = `The gas wallet ${context.gasWallet.address} holds ${fromBaseUnits(gasBalance, 18)}; this sweep needs ${fromBaseUnits(needed, 18)} to pay its fee.`;
    await transition(context, sweep, "defer", { failureReason: reason });
    return "DEFERRED";
  }
  await sign(context, sweep, "start_funding", "FUNDING", context.gasWallet, {
    to: from,
    value: need,
    gas: nativeTransferGas,
    ...fees,
  });
  return "FUNDING";
}

/** The ERC-20 transfer from the (funded) deposit address to the settlement wallet. */
async function sendTokenTransfer(context: Context, funded: Sweep, token: TokenConfig): Promise<SweepStatus> {
  const sweep = await checkSweepDestination(context, funded, context.destinations, derivedWallets(context));
  if (!sweep) return "DEFERRED";
  const amount = toBaseUnits(sweep.amount.toFixed(), token.decimals);
  const gas = await estimateTransferGas(context.client, {
    token: token.address as Address,
    from: sweep.fromAddress as Address,
    to: sweep.toAddress as Address,
    amount,
  });
  const fees = await context.client.estimateFeesPerGas();
  const coin = await context.client.getBalance({ address: sweep.fromAddress as Address });
  // Pays no more per gas than the top-up provided (fees may have risen since it was sent).
  const maxFeePerGas = fees.maxFeePerGas * gas <= coin ? fees.maxFeePerGas : coin / gas;
  await sign(
    context,
    sweep,
    "funded",
    "TRANSFER",
    depositAccount(context, sweep),
    {
      to: token.address as Address,
      value: 0n,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "transfer",
        args: [sweep.toAddress as Address, amount],
      }),
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas: smaller(fees.maxPriorityFeePerGas, maxFeePerGas),
    },
    { amountSent: sweep.amount.toFixed() },
  );
  return "SUBMITTED";
}
