import { type Address, getAddress, type Hex, type PublicClient, parseAbiItem } from "viem";
import type { NetworkConfig, TokenConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import { newId } from "../ids";
import { fromBaseUnits } from "../money/decimal";
import { updateInvoiceFromPayments } from "./update-invoice-from-payments";

const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
/** How far back a first scan looks. */
const firstScanDepth = 1000n;
const openStatuses = ["AWAITING_PAYMENT", "PARTIALLY_PAID", "CONFIRMING", "OVERDUE"] as const;
/** Blocks requested at once from the node. */
const blockFetchConcurrency = 8;

/** Fetches per block, a few at a time, yielding each chunk so whole blocks are not all held at once. */
async function* fetchInChunks<T>(numbers: bigint[], fetch: (blockNumber: bigint) => Promise<T>) {
  for (let start = 0; start < numbers.length; start += blockFetchConcurrency)
    yield await Promise.all(numbers.slice(start, start + blockFetchConcurrency).map(fetch));
}

/** A transfer to a watched address, ERC-20 or native, as the watcher records it. */
type Transfer = {
  to: Address;
  symbol: string;
  txHash: Hex;
  logIndex: number;
  amount: string;
  blockNumber: bigint;
  blockHash: Hex;
};

/**
 * Plain native-coin transfers to deposit addresses in [from, to]: one getBlock with its
 * transactions per block (a value transfer emits no log to filter on), and a receipt only for a
 * matching transaction, because a reverted one moved nothing.
 */
async function nativeTransfers(
  client: PublicClient,
  token: TokenConfig,
  watched: Map<Address, { token: string }>,
  from: bigint,
  to: bigint,
): Promise<Transfer[]> {
  // Lower-case keys: checksumming (a keccak hash) every recipient in every block is needless work.
  const byRecipient = new Map([...watched].map(([address, invoice]) => [address.toLowerCase(), invoice]));
  const found: Transfer[] = [];
  const numbers: bigint[] = [];
  for (let number = from; number <= to; number++) numbers.push(number);
  const chunks = fetchInChunks(numbers, (blockNumber) =>
    client.getBlock({ blockNumber, includeTransactions: true }),
  );
  for await (const blocks of chunks) {
    for (const block of blocks) {
      for (const transaction of block.transactions) {
        if (!transaction.to || transaction.value === 0n) continue;
        if (byRecipient.get(transaction.to.toLowerCase())?.token !== token.symbol) continue;
        const receipt = await client.getTransactionReceipt({ hash: transaction.hash });
        if (receipt.status !== "success") continue;
        found.push({
          to: transaction.to,
          symbol: token.symbol,
          txHash: transaction.hash,
          // A transaction carries at most one top-level value transfer and no log for it, and log
          // indexes start at 0: -1 keeps (txHash, logIndex) unique next to ERC-20 payments.
          logIndex: -1,
          amount: fromBaseUnits(transaction.value, token.decimals),
          blockNumber: block.number as bigint,
          blockHash: block.hash as Hex,
        });
      }
    }
  }
  return found;
}

/**
 * One pass of the chain watcher over a network: records ERC-20 and native-coin transfers to open
 * invoices' deposit addresses (idempotent on tx hash + log index), re-checks that counted
 * payments' blocks are still canonical (a vanished block un-counts its payment and rewinds the
 * cursor), updates confirmations, and moves the affected invoices on. Resumes from a cursor kept
 * in PostgreSQL.
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
  // One hash lookup per block, however many payments it holds.
  const heights = [...new Set(counted.map((payment) => payment.blockNumber))].filter(
    (number) => number <= head,
  );
  const hashes: (Hex | null)[] = [];
  for await (const chunk of fetchInChunks(heights, (blockNumber) =>
    client
      .getBlock({ blockNumber })
      .then((block) => block.hash)
      .catch(() => null),
  ))
    hashes.push(...chunk);
  const canonicalHashes = new Map(heights.map((number, index) => [number, hashes[index]]));
  for (const payment of counted) {
    if (canonicalHashes.get(payment.blockNumber) === payment.blockHash) continue;
    await database.payment.update({ where: { id: payment.id }, data: { status: "REORGED" } });
    touched.add(payment.invoiceId);
    if (payment.blockNumber <= from) from = payment.blockNumber;
  }

  const invoices = await database.invoice.findMany({
    where: { network: network.id, status: { in: [...openStatuses] } },
    select: { id: true, organizationId: true, depositAddress: true, token: true, deadline: true },
  });
  const byAddress = new Map(invoices.map((invoice) => [getAddress(invoice.depositAddress), invoice]));
  const transfers: Transfer[] = [];
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
        if (log.transactionHash === null || log.logIndex === null || log.blockNumber === null) continue;
        transfers.push({
          to: log.args.to as Address,
          symbol: token.symbol,
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          amount: fromBaseUnits(log.args.value ?? 0n, token.decimals),
          blockNumber: log.blockNumber,
          blockHash: log.blockHash as Hex,
        });
      }
    }
    const native = network.tokens.find((candidate) => !candidate.address);
    if (native && invoices.some((invoice) => invoice.token === native.symbol)) {
      transfers.push(...(await nativeTransfers(client, native, byAddress, from, head)));
    }
  }

  for (const found of transfers) {
    const invoice = byAddress.get(getAddress(found.to));
    // The address must belong to an invoice in the token that moved (USDC sent to an ETH
    // invoice's address is not a payment of it).
    if (!invoice || invoice.token !== found.symbol) continue;
    await database.payment.createMany({
      data: [
        {
          id: newId("payment"),
          organizationId: invoice.organizationId,
          invoiceId: invoice.id,
          txHash: found.txHash,
          logIndex: found.logIndex,
          amount: found.amount,
          blockNumber: found.blockNumber,
          blockHash: found.blockHash,
          late: now.getTime() > invoice.deadline.getTime(),
        },
      ],
      skipDuplicates: true,
    });
    // A transfer un-counted by a reorganisation and mined again counts again, in its new block.
    await database.payment.updateMany({
      where: { txHash: found.txHash, logIndex: found.logIndex, status: "REORGED" },
      data: {
        status: "CONFIRMING",
        blockNumber: found.blockNumber,
        blockHash: found.blockHash,
        confirmations: 0,
      },
    });
    touched.add(invoice.id);
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
    await transactWithEvents(database, (tx) => updateInvoiceFromPayments(tx, invoiceId, now));
  }
  await database.chainCursor.upsert({
    where: { network: network.id },
    create: { network: network.id, lastScannedBlock: head },
    update: { lastScannedBlock: head },
  });
  return { head, touched: touched.size };
}
