import { type Address, type Hex, keccak256, type PrivateKeyAccount, type PublicClient } from "viem";
import type { NetworkConfig } from "../chains/networks";
import { evmChainId } from "../chains/networks";
import type { Db, Tx } from "../db/client";
import type { SignedTransaction } from "../generated/prisma/client";
import { newId } from "../ids";
import { allocateNonce } from "./allocate-nonce";
import { broadcastTransaction } from "./broadcast-transaction";

// The signing role's one way to send a transaction, for sweeps and refunds alike. It is signed,
// and recorded with its raw bytes and its owner's change of status in one database transaction,
// BEFORE it is broadcast: after a crash at any point the next pass finds the transaction by its
// hash (lib/signer/follow-transactions.ts) and re-sends those same bytes if the node never saw
// them, so nothing is ever sent twice. A replacement reuses the nonce, so at most one is mined.

export type UnsignedTransaction = {
  to: Address;
  value: bigint;
  data?: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

/** What the transaction is for: the row it belongs to, and its change of status. */
export type TransactionOwner = {
  link: { sweepId: string } | { refundId: string };
  attempt: number;
  /**
   * Writes the owner's new status in the recording transaction; throws when the owner moved on
   * meanwhile (another signer got there first), which rolls the recording back.
   */
  record: (tx: Tx, hash: string) => Promise<void>;
};

export type SignRequest = {
  database: Db;
  network: NetworkConfig;
  client: PublicClient;
  account: PrivateKeyAccount;
  kind: "FUNDING" | "TRANSFER";
  unsigned: UnsignedTransaction;
  owner: TransactionOwner;
  now: Date;
  /** The transaction a fee bump replaces (its nonce is reused). */
  replaces?: SignedTransaction;
  /** Called between recording and broadcasting (tests: a crash in between). */
  beforeBroadcast?: (hash: Hex) => void | Promise<void>;
};

/** Signs with a nonce from the database, records, then broadcasts; returns the hash. */
export async function signTransaction(request: SignRequest): Promise<Hex> {
  const { database, network, client, account, unsigned, owner, replaces } = request;
  const chainCount = replaces
    ? 0
    : await client.getTransactionCount({ address: account.address, blockTag: "pending" });
  const hash = await database.$transaction(async (tx) => {
    const nonce = replaces
      ? replaces.nonce
      : await allocateNonce(tx, network.id, account.address, chainCount);
    const raw = await account.signTransaction({
      ...unsigned,
      nonce,
      chainId: evmChainId(network),
      type: "eip1559",
    });
    const hash = keccak256(raw);
    await owner.record(tx, hash);
    if (replaces)
      await tx.signedTransaction.update({ where: { id: replaces.id }, data: { replacedAt: request.now } });
    await tx.signedTransaction.create({
      data: {
        id: newId("signedTransaction"),
        ...owner.link,
        attempt: owner.attempt,
        kind: request.kind,
        signer: account.address,
        nonce,
        hash,
        raw,
        maxFeePerGas: unsigned.maxFeePerGas.toString(),
        createdAt: request.now,
      },
    });
    return hash;
  });
  await request.beforeBroadcast?.(hash);
  const raw = (await database.signedTransaction.findUniqueOrThrow({ where: { hash } })).raw;
  await broadcastTransaction(client, raw as Hex);
  return hash;
}
