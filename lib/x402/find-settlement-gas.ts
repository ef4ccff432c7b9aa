import { eip3009ABI } from "@x402/evm";
import { decodeFunctionData, type Hex, type TransactionReceipt } from "viem";
import { clientFor } from "../chains/evm/evm-client";
import type { NetworkConfig } from "../chains/networks";
import { log } from "../log";
import { Money } from "../money/decimal";
import { usesAuthorization, type X402AuthorizationRef } from "./eip3009-token";
import { nativeUsd } from "./x402-gas";

/** Whether the mined transaction is this authorization's transfer: it used it, or reverted trying. */
async function settlesAuthorization(
  network: NetworkConfig,
  receipt: TransactionReceipt,
  authorization: X402AuthorizationRef,
): Promise<boolean> {
  if (usesAuthorization(receipt.logs, authorization)) return true;
  if (receipt.status !== "reverted" || receipt.to?.toLowerCase() !== authorization.asset) return false;
  const { input } = await clientFor(network).getTransaction({ hash: receipt.transactionHash });
  try {
    const { functionName, args } = decodeFunctionData({ abi: eip3009ABI, data: input });
    return (
      functionName === "transferWithAuthorization" &&
      String(args[0]).toLowerCase() === authorization.payer &&
      String(args[5]).toLowerCase() === authorization.nonce
    );
  } catch {
    return false;
  }
}

/**
 * What a settlement's mined transaction (its receipt, or its hash) cost this service, in USD (0
 * where gas is not counted); undefined when it or the coin's price cannot be read now. Only gas
 * our facilitator wallet paid for this payment counts: a transaction sent from one of `wallets`
 * (findFacilitatorWallets) that carries the authorization's AuthorizationUsed event, or that
 * reverted calling the token's transferWithAuthorization with its payer and nonce (its gas was
 * paid too). Any other transaction a facilitator names is no cost of ours: an external
 * facilitator pays its own gas, and a transaction that is not this payment's transfer is charged
 * to nobody's budget. With no wallet of ours known, undefined: unknown, never free.
 */
export async function findSettlementGas(
  network: NetworkConfig,
  transaction: TransactionReceipt | Hex,
  authorization: X402AuthorizationRef,
  wallets: string[],
  now: Date,
): Promise<Money | undefined> {
  try {
    const receipt =
      typeof transaction === "string"
        ? await clientFor(network).getTransactionReceipt({ hash: transaction })
        : transaction;
    // Our wallet unknown (none derived here, none reported yet): whether we paid cannot be told,
    // so nothing is counted as free; the budget counts the row at the estimate (lib/x402/x402-gas.ts).
    if (wallets.length === 0) return undefined;
    if (!wallets.includes(receipt.from.toLowerCase())) return new Money(0);
    if (!(await settlesAuthorization(network, receipt, authorization))) return new Money(0);
    return await nativeUsd(network, receipt.gasUsed * receipt.effectiveGasPrice, now);
  } catch (error) {
    log.warn({ err: error, network: network.id }, "x402 settlement gas unread");
    return undefined;
  }
}
