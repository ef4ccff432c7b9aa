import { type Address, isAddress } from "@solana/kit";
import { z } from "zod";
import type { Commitment, LocalSolanaChain } from "./local-solana-chain";

/** JSON-RPC 2.0's error codes, and the Solana RPC's own ones this chain answers. */
export const rpcErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
  unsupportedTransactionVersion: -32015,
  minContextSlotNotReached: -32016,
} as const;

/** An error answered as a JSON-RPC error object. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** An RpcError by the name of its code. */
export const rpcFailure = (code: keyof typeof rpcErrorCodes, message: string, data?: unknown) =>
  new RpcError(rpcErrorCodes[code], message, data);

export const invalidParams = (message: string) =>
  new RpcError(rpcErrorCodes.invalidParams, `Invalid params: ${message}`);

/** A method: the chain and the request's positional params in, the JSON result out. */
export type RpcMethod = (chain: LocalSolanaChain, params: unknown[]) => unknown;

/** Reads `params` by `schema`, or throws invalid params naming what is wrong. */
export function parseParams<Schema extends z.ZodType>(schema: Schema, params: unknown[]): z.infer<Schema> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidParams(`${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
}

export const addressParam = z
  .string()
  .refine(isAddress, { error: "not a base58 address of 32 bytes" })
  .transform((value) => value as Address);

export const commitmentParam = z.enum(["processed", "confirmed", "finalized"]);

export const u64Param = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** The configuration object most methods take last. */
export const commitmentConfig = z.looseObject({
  commitment: commitmentParam.optional(),
  minContextSlot: u64Param.optional(),
});

/** `{config}` or nothing, as a method's optional last param. */
export const optionalConfig = <Shape extends z.ZodType>(config: Shape) =>
  config.optional().default({} as never);

/** The slot a read answers at, refusing a `minContextSlot` the chain has not reached, as a cluster does. */
export function contextSlot(
  chain: LocalSolanaChain,
  config: { commitment?: Commitment; minContextSlot?: number } = {},
): bigint {
  const slot = chain.slot(config.commitment ?? "finalized");
  if (config.minContextSlot !== undefined && slot < BigInt(config.minContextSlot))
    throw new RpcError(rpcErrorCodes.minContextSlotNotReached, "Minimum context slot has not been reached", {
      contextSlot: slot,
    });
  return slot;
}

/** The version this chain reports (getVersion) and stamps on contexts. */
export const localSolanaVersion = { solanaCore: "4.2.0", featureSet: 0 };

/** The `{context, value}` wrapper of reads. */
export const withContext = (slot: bigint, value: unknown) => ({
  context: { slot, apiVersion: localSolanaVersion.solanaCore },
  value,
});
