import { base58 } from "@scure/base";
import type { Address, Rpc, Signature, SolanaRpcApi } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { ObservedTransfer, ReadRange, TransferReader, WatchedReceivers } from "../chain-family";
import type { NetworkConfig, TokenConfig } from "../networks";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import { memoV2ProgramAddress } from "./prepare-token-transfer";

export type SolanaRpc = Rpc<SolanaRpcApi>;

/** Signatures per getSignaturesForAddress page (the RPC's most). */
const pageSize = 1000;
/** Transactions requested from the node at once. */
const fetchConcurrency = 8;
/**
 * Slots per scanned range when a network sets no maxBlockRange (about 13 minutes): a range's
 * signatures are all listed before its first chunk is read, so a flood of them is listed in
 * bounded parts too.
 */
const defaultMaxSlotRange = 2_000n;
/**
 * Transactions read (a getTransaction each) before the watcher records what they paid and moves
 * its cursor: a flood of cheap transfers to the receiving account is got through a chunk a poll,
 * however short the poll, and the payment behind it is reached.
 */
export const transactionsPerChunk = 100;
/** Keys of a transfer carrying no watched reference that are looked up (Solana Pay wallets add one). */
const maxLookedUpKeys = 4;
/** The token program's instructions a payment is made with (their first data byte). */
const transferInstruction = 3;
const transferCheckedInstruction = 12;

/**
 * The newest signature each token account's read has seen, per connection: a later read whose
 * range starts after it asks only for what is newer (`until`), so an idle poll gets an empty page
 * however long the account's history.
 */
const newestSeen = new WeakMap<SolanaRpc, Map<string, { signature: string; slot: bigint }>>();

/** The commitment payments count at on a network. */
export const commitmentOf = (network: NetworkConfig) => network.commitment ?? "finalized";

type RawTransaction = {
  slot: bigint;
  meta: {
    err: unknown;
    loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] };
    preTokenBalances?: readonly { accountIndex: number; owner?: string }[];
  } | null;
  transaction: {
    message: {
      accountKeys: readonly string[];
      instructions: readonly { programIdIndex: number; accounts: readonly number[]; data: string }[];
    };
  };
};

/**
 * A token transfer instruction into `account`: its amount, who paid (the source account's owner,
 * else the signing authority) and its extra keys.
 */
type TokenTransfer = { index: number; units: bigint; payer: string; extraKeys: string[]; memos: string[] };

/**
 * The transfers of `mint` into `account` a transaction makes at its top level, as Solana Pay and
 * x402 wallets make them: Transfer or TransferChecked (whose mint must match), with any keys after
 * the instruction's own (Solana Pay's references) and the transaction's memos (x402's).
 */
export function tokenTransfersInto(
  transaction: RawTransaction,
  account: string,
  mint: string,
): TokenTransfer[] {
  if (!transaction.meta || transaction.meta.err !== null) return [];
  const { message } = transaction.transaction;
  const loaded = transaction.meta.loadedAddresses;
  const keys = [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  // The wallet that owned the source account: a delegate or multisig signer is not who paid.
  const ownerOf = (source: string, authority: string) =>
    transaction.meta?.preTokenBalances?.find((balance) => keys[balance.accountIndex] === source)?.owner ??
    authority;
  // An x402 payment carries its invoice's reference as the memo (lib/chains/solana/solana-x402-scheme.ts).
  const memos = message.instructions
    .filter((instruction) => keys[instruction.programIdIndex] === memoV2ProgramAddress)
    .map((instruction) => new TextDecoder().decode(base58.decode(instruction.data)));
  return message.instructions.flatMap((instruction, index) => {
    if (keys[instruction.programIdIndex] !== TOKEN_PROGRAM_ADDRESS) return [];
    const data = base58.decode(instruction.data);
    const accounts = instruction.accounts.map((position) => keys[position]);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const units = data.length >= 9 ? view.getBigUint64(1, true) : 0n;
    // Nothing moved: no payment (and no row a flood of them could write).
    if (units === 0n) return [];
    if (data[0] === transferCheckedInstruction && data.length === 10) {
      const [source, instructionMint, destination, authority, ...extraKeys] = accounts;
      if (destination !== account || instructionMint !== mint) return [];
      return [{ index, units, payer: ownerOf(source, authority), extraKeys, memos }];
    }
    if (data[0] === transferInstruction && data.length === 9) {
      const [source, destination, authority, ...extraKeys] = accounts;
      // A plain Transfer names no mint: the destination, a token account of this mint, decides it.
      if (destination !== account) return [];
      return [{ index, units, payer: ownerOf(source, authority), extraKeys, memos }];
    }
    return [];
  });
}

/**
 * The watcher's chain reading on a Solana network. Every invoice of a network pays the receiving
 * wallet (network.receiver), told apart by its reference: a read lists the signatures touching the
 * receiving wallet's token account of each watched token (one call per page, however many
 * invoices are open) and reads only those transactions, matching their references against the
 * watched ones. Only what reached the network's commitment is read, so nothing read is rolled
 * back: a position's block id is the position itself.
 */
export function solanaTransferReader(rpc: SolanaRpc, network: NetworkConfig): TransferReader {
  const commitment = commitmentOf(network);
  const receiver = network.receiver;

  let seen = newestSeen.get(rpc);
  if (!seen) {
    seen = new Map();
    newestSeen.set(rpc, seen);
  }
  const newest = seen;

  /** Signatures of successful transactions on `account` with slots in the range, oldest first. */
  async function signaturesIn(account: string, range: ReadRange) {
    const found: { signature: string; slot: bigint }[] = [];
    const known = newest.get(account);
    const until = known && known.slot < range.from ? known.signature : undefined;
    let before: string | undefined;
    for (;;) {
      range.signal?.throwIfAborted();
      const page = await rpc
        .getSignaturesForAddress(account as Address, {
          commitment,
          limit: pageSize,
          // A node behind the head just read would list too little, and the range would pass.
          minContextSlot: range.to,
          ...(before ? { before: before as Signature } : {}),
          ...(until ? { until: until as Signature } : {}),
        })
        .send();
      // The newest signature at or below the range's end: what the next read need not list again.
      if (!before) {
        const latest = page.find((entry) => entry.slot <= range.to);
        if (latest) newest.set(account, { signature: latest.signature, slot: latest.slot });
      }
      for (const entry of page)
        if (entry.err === null && entry.slot >= range.from && entry.slot <= range.to)
          found.push({ signature: entry.signature, slot: entry.slot });
      const oldest = page.at(-1);
      // A short page ends the listing only when it reached `until`; a provider may page shorter.
      if (!oldest || oldest.slot < range.from || (until && page.length < pageSize)) break;
      before = oldest.signature;
    }
    return found.reverse();
  }

  /** A listed signature on one watched token's receiving account. */
  type Listed = { signature: string; slot: bigint; token: TokenConfig; account: string };

  /** The signatures of every watched token's receiving account in the range, oldest first. */
  async function listed(range: ReadRange): Promise<Listed[]> {
    const lists = await Promise.all(
      network.tokens.map(async (token) => {
        // Listed even when no invoice in the token is watched: a payment to one no longer watched
        // is recorded too, and the account is one call whatever the number of invoices.
        if (!token.address || !receiver) return [];
        const account = await associatedTokenAccount(receiver as Address, token.address as Address);
        return (await signaturesIn(account, range)).map((entry) => ({ ...entry, token, account }));
      }),
    );
    return lists.flat().sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
  }

  /** The transfers into watched references (or, carrying none, every key they carry) of some listed transactions. */
  async function read(entries: Listed[], range: ReadRange, watched: WatchedReceivers) {
    const observed: ObservedTransfer[] = [];
    for (let start = 0; start < entries.length; start += fetchConcurrency) {
      range.signal?.throwIfAborted();
      const batch = entries.slice(start, start + fetchConcurrency);
      const transactions = await Promise.all(
        batch.map(({ signature }) =>
          rpc
            .getTransaction(signature as Signature, {
              commitment,
              encoding: "json",
              maxSupportedTransactionVersion: 0,
            })
            .send(),
        ),
      );
      transactions.forEach((transaction, offset) => {
        const { signature, slot, token, account } = batch[offset];
        // Listed but not served (a node without it yet, or without history): read the range again.
        if (!transaction) throw new Error(`the node listed ${signature} but did not return it`);
        const references = watched.receivers(token.symbol);
        for (const transfer of tokenTransfersInto(
          transaction as unknown as RawTransaction,
          account,
          token.address as string,
        )) {
          const reference =
            transfer.extraKeys.find((key) => references.has(key)) ??
            transfer.memos.find((memo) => references.has(memo));
          // A reference no longer watched (its invoice CONFIRMED, or past its late window) is
          // looked up by the watcher: money that reached the receiving wallet is never unrecorded.
          const keys = reference
            ? [reference]
            : [...new Set([...transfer.extraKeys, ...transfer.memos])].slice(0, maxLookedUpKeys);
          for (const key of keys)
            observed.push({
              token: token.symbol,
              receiver: key,
              transaction: signature,
              index: transfer.index,
              units: transfer.units,
              position: slot,
              block: slot.toString(),
              payer: transfer.payer,
            });
        }
      });
    }
    return observed;
  }

  return {
    head: () => rpc.getSlot({ commitment }).send(),
    maxRange: network.maxBlockRange ? BigInt(network.maxBlockRange) : defaultMaxSlotRange,
    async *transfers(range, watched) {
      const entries = await listed(range);
      let start = 0;
      while (start < entries.length) {
        // A chunk ends with a slot: the cursor moves by whole slots, so none is read in part.
        let end = Math.min(start + transactionsPerChunk, entries.length);
        while (end < entries.length && entries[end].slot === entries[end - 1].slot) end++;
        const transfers = await read(entries.slice(start, end), range, watched);
        start = end;
        yield { transfers, readTo: start < entries.length ? entries[start].slot - 1n : range.to };
      }
      if (entries.length === 0) yield { transfers: [], readTo: range.to };
    },
    // Read at the commitment, a slot's transactions stay: its id is the slot.
    blockIds: async (positions) => new Map(positions.map((position) => [position, position.toString()])),
  };
}
