import type { Address, Hex, PublicClient } from "viem";
import { mintTestToken } from "../chains/mint-test-token";
import { findToken, type NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { Money, toBaseUnits } from "../money/decimal";
import { depositLedger } from "./reconcile-deposit-balances";

/**
 * The local devnet starts from block 0 on every start, empty, while the database keeps its
 * invoices: puts back on the new chain what the ledger says each deposit address still holds (the
 * test token minted to it, ETH set as its balance), so the ledger and the chain agree again and
 * unswept funds can still be swept or refunded. Run after forgetDevnetChain, whose failed sweeps
 * no longer count as moved. Returns how many addresses it restored.
 */
export async function restoreDevnetDeposits(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
): Promise<number> {
  if (!network.devnet) return 0;
  const minted: Hex[] = [];
  let restored = 0;
  for (const row of await depositLedger(database, network.id)) {
    const token = findToken(network, row.token);
    const held = new Money(row.received).minus(row.swept);
    if (!token || !held.gt(0)) continue;
    const units = toBaseUnits(held.toFixed(), token.decimals);
    const address = row.depositAddress as Address;
    if (token.address)
      // Sent together, receipts awaited after.
      minted.push(await mintTestToken(network.rpcUrl, token.address as Address, address, units));
    else
      await client.request({
        method: "hardhat_setBalance" as never,
        params: [address, `0x${units.toString(16)}`] as never,
      });
    restored += 1;
  }
  for (const hash of minted) await client.waitForTransactionReceipt({ hash });
  return restored;
}
