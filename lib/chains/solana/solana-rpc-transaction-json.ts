import {
  type AccountMeta,
  getBase58Decoder,
  getBase64Decoder,
  getInstructionsFromCompiledTransactionMessage,
  getTransactionDecoder,
  getUtf8Decoder,
  type Instruction,
} from "@solana/kit";
import type { CompiledInner, LocalTransaction } from "./local-transaction-record";
import { memoPrograms, parsedInstruction } from "./solana-parsed-instructions";

// A local transaction as getTransaction answers it, in each encoding the RPC offers.

export type TransactionEncoding = "json" | "jsonParsed" | "base58" | "base64";

const base58 = (bytes: Uint8Array) => getBase58Decoder().decode(bytes);

/** The memo field getSignaturesForAddress gives: each memo as "[length] text", joined by "; ". */
export function memoOf(transaction: LocalTransaction): string | null {
  const memos = getInstructionsFromCompiledTransactionMessage(
    transaction.message,
    transaction.loadedAddresses,
  )
    .filter((instruction) => memoPrograms.includes(instruction.programAddress) && instruction.data)
    .map((instruction) => {
      const data = instruction.data ?? new Uint8Array();
      return `[${data.length}] ${getUtf8Decoder().decode(data)}`;
    });
  return memos.length ? memos.join("; ") : null;
}

function resolveInner(transaction: LocalTransaction, inner: CompiledInner): Instruction {
  const meta = (index: number): AccountMeta => {
    const key = transaction.accountKeys[index];
    return { address: key.address, role: (key.signer ? 2 : 0) | (key.writable ? 1 : 0) };
  };
  return {
    programAddress: transaction.accountKeys[inner.programIdIndex].address,
    accounts: inner.accounts.map(meta),
    data: inner.data,
  };
}

function innerInstructions(transaction: LocalTransaction, parsed: boolean) {
  return transaction.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((inner) =>
      parsed
        ? parsedInstruction(resolveInner(transaction, inner), inner.stackHeight)
        : {
            programIdIndex: inner.programIdIndex,
            accounts: inner.accounts,
            data: base58(inner.data),
            stackHeight: inner.stackHeight,
          },
    ),
  }));
}

function meta(transaction: LocalTransaction, parsed: boolean) {
  return {
    err: transaction.err,
    status: transaction.err === null ? { Ok: null } : { Err: transaction.err },
    fee: transaction.fee,
    preBalances: transaction.preBalances,
    postBalances: transaction.postBalances,
    innerInstructions: innerInstructions(transaction, parsed),
    logMessages: transaction.logs,
    preTokenBalances: transaction.preTokenBalances,
    postTokenBalances: transaction.postTokenBalances,
    rewards: [],
    loadedAddresses: transaction.loadedAddresses,
    computeUnitsConsumed: transaction.computeUnitsConsumed,
    ...(transaction.returnData
      ? {
          returnData: {
            programId: transaction.returnData.programId,
            data: [getBase64Decoder().decode(transaction.returnData.data), "base64"],
          },
        }
      : {}),
  };
}

function signatures(transaction: LocalTransaction): string[] {
  return Object.values(getTransactionDecoder().decode(transaction.wire).signatures).map((signature) =>
    base58(new Uint8Array(signature ?? new Uint8Array(64))),
  );
}

function message(transaction: LocalTransaction, parsed: boolean) {
  const compiled = transaction.message;
  const lookups =
    compiled.version === 0 && compiled.addressTableLookups?.length
      ? {
          addressTableLookups: compiled.addressTableLookups.map((lookup) => ({
            accountKey: lookup.lookupTableAddress,
            writableIndexes: lookup.writableIndexes,
            readonlyIndexes: lookup.readonlyIndexes,
          })),
        }
      : compiled.version === 0
        ? { addressTableLookups: [] }
        : {};
  if (parsed) {
    const instructions = getInstructionsFromCompiledTransactionMessage(compiled, transaction.loadedAddresses);
    return {
      accountKeys: transaction.accountKeys.map((key) => ({
        pubkey: key.address,
        signer: key.signer,
        writable: key.writable,
        source: key.source,
      })),
      instructions: instructions.map((instruction) => parsedInstruction(instruction, null)),
      recentBlockhash: compiled.lifetimeToken,
      ...lookups,
    };
  }
  return {
    accountKeys: compiled.staticAccounts,
    header: {
      numRequiredSignatures: compiled.header.numSignerAccounts,
      numReadonlySignedAccounts: compiled.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: compiled.header.numReadonlyNonSignerAccounts,
    },
    recentBlockhash: compiled.lifetimeToken,
    instructions: compiled.instructions.map((instruction) => ({
      programIdIndex: instruction.programAddressIndex,
      accounts: instruction.accountIndices ?? [],
      data: base58(new Uint8Array(instruction.data ?? [])),
      stackHeight: null,
    })),
    ...lookups,
  };
}

/** getTransaction's answer for `transaction` in `encoding`. */
export function transactionJson(transaction: LocalTransaction, encoding: TransactionEncoding) {
  const parsed = encoding === "jsonParsed";
  const body =
    encoding === "base64"
      ? [getBase64Decoder().decode(transaction.wire), "base64"]
      : encoding === "base58"
        ? [base58(transaction.wire), "base58"]
        : { signatures: signatures(transaction), message: message(transaction, parsed) };
  return {
    slot: transaction.slot,
    blockTime: transaction.blockTime,
    transaction: body,
    meta: meta(transaction, parsed),
    version: transaction.message.version,
  };
}
