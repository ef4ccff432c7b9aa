import { chainFamily } from "../chains/chain-families";
import type {
  ServiceTransferRefusal,
  ServiceTransferRequest,
  ServiceTransfers,
} from "../chains/chain-family";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { newId } from "../ids";
import type { TransactionOwner } from "./sign-transaction";

// The signing role's way to send a transfer from the service's own wallets on a family that has
// them (ChainFamily.serviceTransfers), for sweeps and refunds alike: signed, then recorded with its
// raw bytes and its owner's change of status in one database transaction, and only then sent. After
// a crash at any point, lib/signer/follow-service-transfer.ts finds it by its id and sends the same
// bytes again, which land at most once; a new transfer is signed only once the chain says the
// recorded one expired.

export type ServiceTransferSend = {
  database: Db;
  network: NetworkConfig;
  mnemonic: string;
  request: ServiceTransferRequest;
  owner: TransactionOwner;
  now: Date;
  /** Called between recording and sending (tests: a crash in between). */
  beforeBroadcast?: (id: string) => void | Promise<void>;
};

/** The network's service transfers; an error on a family without them (a caller's bug). */
export function serviceTransfersOf(network: NetworkConfig): ServiceTransfers {
  const transfers = chainFamily(network).serviceTransfers;
  if (!transfers) throw new Error(`network ${network.id}'s family has no service transfers`);
  return transfers;
}

/**
 * Signs (no database transaction is open while the chain is read), records with the owner's
 * transition, then sends. Returns the transfer's id, or the family's refusal, with nothing
 * recorded or sent.
 */
export async function signServiceTransfer(
  send: ServiceTransferSend,
): Promise<{ state: "sent"; id: string } | ServiceTransferRefusal> {
  const { database, network, owner } = send;
  const transfers = serviceTransfersOf(network);
  const signed = await transfers.sign(network, send.mnemonic, send.request);
  if (signed.state === "refused") return signed;
  const { transfer } = signed;
  await database.$transaction(async (tx) => {
    await owner.record(tx, transfer.id);
    await tx.signedTransaction.create({
      data: {
        id: newId("signedTransaction"),
        ...owner.link,
        attempt: owner.attempt,
        kind: "TRANSFER",
        signer: transfer.signer,
        nonce: 0,
        hash: transfer.id,
        raw: transfer.raw,
        maxFeePerGas: "0",
        validUntil: transfer.validUntil,
        createdAt: send.now,
      },
    });
  });
  await send.beforeBroadcast?.(transfer.id);
  await transfers.follow(network, transfer);
  return { state: "sent", id: transfer.id };
}
