import { type Address, getAddress, type Hex, type PublicClient, parseAbiItem } from "viem";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { newId } from "../ids";
import { fromBaseUnits } from "../money/decimal";
import { updateInvoiceFromPayments } from "./update-invoice-from-payments";

const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
/** How far back a first scan looks. */
const firstScanDepth = 1000n;
const openStatuses = ["AWAITING_PAYMENT", "PARTIALLY_PAID", "CONFIRMING", "OVERDUE"] as const;

/**
 * One pass of the chain watcher over a network: records ERC-20 transfers to open invoices'
 * deposit addresses (idempotent on tx hash + log index), re-checks that counted payments' blocks
 * are still canonical (a vanished block un-counts its payment and rewinds the cursor), updates
 * confirmations, and moves the affected invoices on. Resumes from a cursor kept in PostgreSQL.
 */
export async function scanNetwork(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  now = new Date(),
) {
  const head = await client.getBlockNumber();
  const cursor = await database.chainCursor.findUnique({ where: { network: network.id } });
  let from = cursor ? cursor.lastScannedBlock + 1n : head > firstScanDepth ? head - firstScanDepth : 0n;
  const touched = new Set<string>();

  // Reorganisations first: a counted payment whose block is gone, or replaced, no longer counts.
  const counted = await database.payment.findMany({
    where: {
      status: { in: ["CONFIRMING", "CONFIRMED"] },
      invoice: { network: network.id, status: { not: "CONFIRMED" } },
    },
  });
  for (const payment of counted) {
    const block =
      payment.blockNumber <= head
        ? await client.getBlock({ blockNumber: payment.blockNumber }).catch(() => null)
        : null;
    if (block?.hash === payment.blockHash) continue;
    await database.payment.update({ where: { id: payment.id }, data: { status: "REORGED" } });
    touched.add(payment.invoiceId);
    if (payment.blockNumber <= from) from = payment.blockNumber;
  }

  const invoices = await database.invoice.findMany({
    where: { network: network.id, status: { in: [...openStatuses] } },
    select: { id: true, organizationId: true, depositAddress: true, token: true, deadline: true },
  });
  const byAddress = new Map(invoices.map((invoice) => [getAddress(invoice.depositAddress), invoice]));
  if (from <= head && invoices.length > 0) {
    for (const token of network.tokens.filter((candidate) => candidate.address)) {
      const watched = invoices
        .filter((invoice) => invoice.token === token.symbol)
        .map((invoice) => getAddress(invoice.depositAddress));
      if (watched.length === 0) continue;
      const logs = await client.getLogs({
        address: token.address as Address,
        event: transfer,
        args: { to: watched },
        fromBlock: from,
        toBlock: head,
      });
      for (const log of logs) {
        const invoice = byAddress.get(getAddress(log.args.to as Address));
        if (!invoice || log.transactionHash === null || log.logIndex === null || log.blockNumber === null)
          continue;
        await database.payment.createMany({
          data: [
            {
              id: newId("payment"),
              organizationId: invoice.organizationId,
              invoiceId: invoice.id,
              txHash: log.transactionHash,
              logIndex: log.logIndex,
              amount: fromBaseUnits(log.args.value ?? 0n, token.decimals),
              blockNumber: log.blockNumber,
              blockHash: log.blockHash as Hex,
              late: now.getTime() > invoice.deadline.getTime(),
            },
          ],
          skipDuplicates: true,
        });
        // A transfer un-counted by a reorganisation and mined again counts again, in its new block.
        await database.payment.updateMany({
          where: { txHash: log.transactionHash, logIndex: log.logIndex, status: "REORGED" },
          data: {
            status: "CONFIRMING",
            blockNumber: log.blockNumber,
            blockHash: log.blockHash as Hex,
            confirmations: 0,
          },
        });
        touched.add(invoice.id);
      }
    }
  }

  // Confirmations of everything still counted on this network.
  const pending = await database.payment.findMany({
    where: { status: "CONFIRMING", invoice: { network: network.id } },
  });
  for (const payment of pending) {
    const confirmations = Number(head - payment.blockNumber + 1n);
    const status = confirmations >= network.confirmations ? "CONFIRMED" : "CONFIRMING";
    if (confirmations !== payment.confirmations || status !== payment.status) {
      await database.payment.update({ where: { id: payment.id }, data: { confirmations, status } });
      touched.add(payment.invoiceId);
    }
  }

  for (const invoiceId of touched) {
    await database.$transaction((tx) => updateInvoiceFromPayments(tx, invoiceId, now));
  }
  await database.chainCursor.upsert({
    where: { network: network.id },
    create: { network: network.id, lastScannedBlock: head },
    update: { lastScannedBlock: head },
  });
  return { head, touched: touched.size };
}
