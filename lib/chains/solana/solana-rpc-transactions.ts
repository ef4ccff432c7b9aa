import {
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getInstructionsFromCompiledTransactionMessage,
  getTransactionMessageComputeUnitLimit,
  getTransactionMessageComputeUnitPrice,
  type TransactionMessage,
} from "@solana/kit";
import { z } from "zod";
import type { TransactionErrorJson } from "./litesvm-errors";
import { InvalidTransactionError, type LocalSolanaChain, type SimulateOutcome } from "./local-solana-chain";
import { airdropLocalSol } from "./local-solana-funds";
import type { LocalMessage } from "./local-transaction-record";
import { accountConfig, encodeAccount } from "./solana-rpc-accounts";
import {
  addressParam,
  commitmentConfig,
  commitmentParam,
  contextSlot,
  invalidParams,
  optionalConfig,
  parseParams,
  RpcError,
  type RpcMethod,
  rpcFailure,
  u64Param,
  withContext,
} from "./solana-rpc-params";

// The Solana RPC's methods that take a transaction: send, simulate, price, and the faucet.

/** The largest transaction a cluster takes (PACKET_DATA_SIZE). */
const maxTransactionBytes = 1232;
/** What each signature costs (the cluster's and LiteSVM's default fee structure). */
export const lamportsPerSignature = 5000n;
/** Compute units an instruction may use when the transaction sets no limit, and a transaction at most. */
const defaultUnitsPerInstruction = 200_000;
const maxUnitsPerTransaction = 1_400_000;
const computeBudgetProgram = "ComputeBudget111111111111111111111111111111";

const encodingParam = z.enum(["base58", "base64"]).optional();

/** The bytes of an encoded transaction or message, refused as invalid params when they are not. */
function decodeBytes(value: string, encoding: "base58" | "base64" | undefined): Uint8Array {
  try {
    const bytes = (encoding === "base64" ? getBase64Encoder() : getBase58Encoder()).encode(value);
    if (bytes.length === 0) throw new Error("empty");
    return new Uint8Array(bytes);
  } catch {
    throw invalidParams(`invalid ${encoding ?? "base58"} encoding`);
  }
}

function decodeTransaction(
  chain: LocalSolanaChain,
  value: string,
  encoding: "base58" | "base64" | undefined,
) {
  const wire = decodeBytes(value, encoding);
  if (wire.length > maxTransactionBytes)
    throw invalidParams(`transaction too large: ${wire.length} bytes (max: ${maxTransactionBytes})`);
  try {
    chain.decode(wire);
  } catch (error) {
    if (error instanceof InvalidTransactionError) throw invalidParams(error.message);
    throw error;
  }
  return wire;
}

/**
 * A message's fee: 5000 lamports a signature, plus its priority fee (compute-unit price in
 * micro-lamports times its unit limit, rounded up), as the runtime charges it.
 */
export function feeForMessage(message: LocalMessage): bigint {
  const instructions = getInstructionsFromCompiledTransactionMessage(message);
  const asMessage = { version: message.version, instructions } as unknown as TransactionMessage & {
    version: "legacy" | 0;
  };
  const price = getTransactionMessageComputeUnitPrice(asMessage) ?? 0n;
  const others = instructions.filter((instruction) => instruction.programAddress !== computeBudgetProgram);
  const limit =
    getTransactionMessageComputeUnitLimit(asMessage) ??
    Math.min(maxUnitsPerTransaction, defaultUnitsPerInstruction * others.length);
  const microLamports = price * BigInt(limit);
  const priority = (microLamports + 999_999n) / 1_000_000n;
  return lamportsPerSignature * BigInt(message.header.numSignerAccounts) + priority;
}

const returnDataJson = (returned: SimulateOutcome["returnData"]) =>
  returned && { programId: returned.programId, data: [getBase64Decoder().decode(returned.data), "base64"] };

const preflightFailure = (err: TransactionErrorJson, simulated: SimulateOutcome) =>
  err === "SignatureFailure"
    ? rpcFailure("transactionSignatureVerificationFailure", "Transaction signature verification failure")
    : rpcFailure(
        "sendTransactionPreflightFailure",
        `Transaction simulation failed: ${typeof err === "string" ? err : JSON.stringify(err)}`,
        {
          err,
          logs: simulated.logs,
          accounts: null,
          unitsConsumed: simulated.unitsConsumed,
          returnData: returnDataJson(simulated.returnData),
          innerInstructions: null,
          replacementBlockhash: null,
        },
      );

const sendConfig = z.looseObject({
  encoding: encodingParam,
  skipPreflight: z.boolean().optional(),
  preflightCommitment: commitmentParam.optional(),
  maxRetries: u64Param.optional(),
  minContextSlot: u64Param.optional(),
});

const simulateConfig = commitmentConfig.extend({
  encoding: encodingParam,
  sigVerify: z.boolean().optional(),
  replaceRecentBlockhash: z.boolean().optional(),
  innerInstructions: z.boolean().optional(),
  accounts: z
    .object({ addresses: z.array(addressParam).max(100), encoding: accountConfig.shape.encoding })
    .optional(),
});

export const transactionMethods: Record<string, RpcMethod> = {
  sendTransaction: (chain, params) => {
    const [encoded, config] = parseParams(z.tuple([z.string(), optionalConfig(sendConfig)]), params);
    contextSlot(chain, { commitment: "processed", minContextSlot: config.minContextSlot });
    const wire = decodeTransaction(chain, encoded, config.encoding);
    if (!config.skipPreflight) {
      const simulated = chain.simulate(wire, { sigVerify: true, replaceRecentBlockhash: false });
      if (simulated.err !== null) throw preflightFailure(simulated.err, simulated);
    }
    // Without preflight a transaction that cannot land is dropped, as a leader drops it: its
    // signature is answered and its status stays unknown.
    chain.send(wire);
    return chain.decode(wire).signature;
  },
  simulateTransaction: (chain, params) => {
    const [encoded, config] = parseParams(z.tuple([z.string(), optionalConfig(simulateConfig)]), params);
    if (config.sigVerify && config.replaceRecentBlockhash)
      throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
    const slot = contextSlot(chain, config);
    const wire = decodeTransaction(chain, encoded, config.encoding);
    const replace = config.replaceRecentBlockhash ?? false;
    const simulated = chain.simulate(wire, {
      sigVerify: config.sigVerify ?? false,
      replaceRecentBlockhash: replace,
    });
    const accounts = config.accounts?.addresses.map((address) => {
      const after = simulated.postAccounts?.find((account) => account.address === address);
      return encodeAccount(chain, after ?? chain.account(address), {
        encoding: config.accounts?.encoding ?? "base64",
      });
    });
    return withContext(slot, {
      err: simulated.err,
      logs: simulated.logs,
      accounts: simulated.err === null ? (accounts ?? null) : null,
      unitsConsumed: simulated.unitsConsumed,
      returnData: returnDataJson(simulated.returnData),
      ...(replace ? { replacementBlockhash: chain.latestBlockhash() } : {}),
    });
  },
  getFeeForMessage: (chain, params) => {
    const [encoded, config] = parseParams(z.tuple([z.string(), optionalConfig(commitmentConfig)]), params);
    const slot = contextSlot(chain, config);
    let message: LocalMessage;
    try {
      message = getCompiledTransactionMessageDecoder().decode(decodeBytes(encoded, "base64")) as LocalMessage;
    } catch (error) {
      if (error instanceof RpcError) throw error;
      throw invalidParams("invalid message");
    }
    if (message.version !== "legacy" && message.version !== 0)
      throw invalidParams("unsupported message version");
    // A message whose blockhash expired has no fee: it can no longer land.
    return withContext(slot, chain.isBlockhashValid(message.lifetimeToken) ? feeForMessage(message) : null);
  },
  requestAirdrop: async (chain, params) => {
    const [address, lamports] = parseParams(
      z.tuple([addressParam, u64Param.positive(), optionalConfig(commitmentConfig)]),
      params,
    );
    return airdropLocalSol(chain, address, BigInt(lamports));
  },
};
