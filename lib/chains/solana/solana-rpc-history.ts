import { z } from "zod";
import type { Commitment } from "./local-solana-chain";
import {
  addressParam,
  commitmentConfig,
  contextSlot,
  invalidParams,
  optionalConfig,
  parseParams,
  type RpcMethod,
  rpcFailure,
  withContext,
} from "./solana-rpc-params";
import { memoOf, transactionJson } from "./solana-rpc-transaction-json";

// The Solana RPC's reads of executed transactions: their statuses, an address's history (how a
// Solana Pay merchant finds a payment by its reference key) and a transaction itself.

const signatureParam = z.string().min(64).max(88);

/** Transactions are read at confirmed or finalized only, as on a cluster. */
function historyCommitment(commitment: Commitment | undefined): Commitment {
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
  return commitment ?? "finalized";
}

const signaturesConfig = commitmentConfig.extend({
  limit: z.number().int().min(1).max(1000).optional(),
  before: signatureParam.optional(),
  until: signatureParam.optional(),
});

const transactionConfig = commitmentConfig.extend({
  encoding: z.enum(["json", "jsonParsed", "base58", "base64"]).optional(),
  maxSupportedTransactionVersion: z.number().int().min(0).max(0).optional(),
});

export const historyMethods: Record<string, RpcMethod> = {
  getSignatureStatuses: (chain, params) => {
    const [signatures] = parseParams(
      z.tuple([
        z.array(signatureParam).max(256),
        optionalConfig(z.looseObject({ searchTransactionHistory: z.boolean().optional() })),
      ]),
      params,
    );
    const slot = chain.slot("processed");
    return withContext(
      slot,
      signatures.map((signature) => {
        const transaction = chain.transaction(signature);
        if (!transaction) return null;
        return {
          slot: transaction.slot,
          ...chain.status(transaction),
          err: transaction.err,
          status: transaction.err === null ? { Ok: null } : { Err: transaction.err },
        };
      }),
    );
  },
  getSignaturesForAddress: (chain, params) => {
    const [address, config] = parseParams(z.tuple([addressParam, optionalConfig(signaturesConfig)]), params);
    const commitment = historyCommitment(config.commitment);
    const maxSlot = contextSlot(chain, { ...config, commitment });
    const found = chain.history(address, {
      maxSlot,
      limit: config.limit ?? 1000,
      before: config.before,
      until: config.until,
    });
    return found.map((transaction) => ({
      signature: transaction.signature,
      slot: transaction.slot,
      err: transaction.err,
      memo: memoOf(transaction),
      blockTime: transaction.blockTime,
      confirmationStatus: chain.status(transaction).confirmationStatus,
    }));
  },
  getTransaction: (chain, params) => {
    const [signature, config] = parseParams(
      z.tuple([signatureParam, optionalConfig(transactionConfig)]),
      params,
    );
    const commitment = historyCommitment(config.commitment);
    const transaction = chain.transaction(signature);
    if (!transaction || transaction.slot > chain.slot(commitment)) return null;
    if (transaction.message.version === 0 && config.maxSupportedTransactionVersion === undefined)
      throw rpcFailure(
        "unsupportedTransactionVersion",
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    return transactionJson(transaction, config.encoding ?? "json");
  },
};
