import {
  type Address,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  getAccountMetasFromCompiledTransactionMessage,
  getAddressDecoder,
  getArrayDecoder,
} from "@solana/kit";
import type { LiteSVM, TransactionMetadata } from "litesvm";
import type { TransactionErrorJson } from "./litesvm-errors";
import {
  type ChainAccount,
  readMint,
  readTokenAccount,
  type UiTokenAmount,
  uiTokenAmount,
} from "./token-amounts";

/** The messages the local chain executes: legacy and v0 (v1 is refused when decoded). */
export type LocalMessage = Exclude<CompiledTransactionMessage, { version: 1 }> &
  CompiledTransactionMessageWithLifetime;

/** Where an account key of a transaction came from: its message, or an address lookup table. */
export type AccountKey = {
  address: Address;
  signer: boolean;
  writable: boolean;
  source: "transaction" | "lookupTable";
};

export type TokenBalance = {
  accountIndex: number;
  mint: Address;
  owner: Address;
  programId: Address;
  uiTokenAmount: UiTokenAmount;
};

export type CompiledInner = {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number;
};

/** A transaction the local chain executed, with what the RPC reports of it (getTransaction's meta). */
export type LocalTransaction = {
  signature: string;
  /** Its place among all transactions, oldest first: orders an address's history. */
  sequence: number;
  slot: bigint;
  blockTime: bigint;
  /** The transaction as sent (wire format). */
  wire: Uint8Array;
  message: LocalMessage;
  accountKeys: AccountKey[];
  loadedAddresses: { writable: Address[]; readonly: Address[] };
  err: TransactionErrorJson | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logs: string[];
  innerInstructions: { index: number; instructions: CompiledInner[] }[];
  computeUnitsConsumed: bigint;
  returnData: { programId: Address; data: Uint8Array } | null;
};

/** Address lookup tables hold their addresses after a 56-byte header (the program's LOOKUP_TABLE_META_SIZE). */
const lookupTableHeaderSize = 56;

/** The addresses a v0 message loads from lookup tables; none when a table is missing (LiteSVM refuses it). */
export function loadedAddressesOf(svm: LiteSVM, message: LocalMessage) {
  const loaded = { writable: [] as Address[], readonly: [] as Address[] };
  const lookups = message.version === 0 ? (message.addressTableLookups ?? []) : [];
  for (const lookup of lookups) {
    const table = svm.getAccount(lookup.lookupTableAddress);
    if (!table.exists) return { writable: [], readonly: [] };
    const addresses = getArrayDecoder(getAddressDecoder(), { size: "remainder" }).decode(
      table.data.slice(lookupTableHeaderSize),
    );
    for (const index of lookup.writableIndexes) loaded.writable.push(addresses[index]);
    for (const index of lookup.readonlyIndexes) loaded.readonly.push(addresses[index]);
  }
  return loaded;
}

/** A transaction's account keys in the runtime's order (static, then loaded writable, then loaded read-only). */
export function accountKeysOf(
  message: LocalMessage,
  loaded: { writable: Address[]; readonly: Address[] },
): AccountKey[] {
  const statics = message.staticAccounts.length;
  return getAccountMetasFromCompiledTransactionMessage(message, {
    writable: loaded.writable,
    readonly: loaded.readonly,
  }).map((meta, index) => ({
    address: meta.address,
    // AccountRole: bit 1 signer, bit 0 writable.
    signer: (meta.role & 2) !== 0,
    writable: (meta.role & 1) !== 0,
    source: index < statics ? "transaction" : "lookupTable",
  }));
}

/** The accounts of `keys` as they are now. */
export function snapshot(svm: LiteSVM, keys: AccountKey[]): ChainAccount[] {
  return keys.map((key) => svm.getAccount(key.address));
}

/** The token accounts among `accounts`, with their balances as getTransaction's meta lists them. */
export function tokenBalances(svm: LiteSVM, accounts: ChainAccount[]): TokenBalance[] {
  return accounts.flatMap((account, accountIndex) => {
    const token = readTokenAccount(account);
    if (!token) return [];
    const mint = readMint(svm.getAccount(token.mint));
    if (!mint) return [];
    return [
      {
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: token.programId,
        uiTokenAmount: uiTokenAmount(token.amount, mint.decimals),
      },
    ];
  });
}

export const lamportsOf = (account: ChainAccount) => (account.exists ? BigInt(account.lamports) : 0n);

/** LiteSVM's inner instructions per top-level instruction, as the RPC lists them (non-empty ones only). */
export function innerInstructionsOf(meta: TransactionMetadata): LocalTransaction["innerInstructions"] {
  return meta.innerInstructions().flatMap((inner, index) =>
    inner.length === 0
      ? []
      : [
          {
            index,
            instructions: inner.map((entry) => {
              const instruction = entry.instruction();
              return {
                programIdIndex: instruction.programIdIndex(),
                accounts: [...instruction.accounts()],
                data: instruction.data(),
                stackHeight: entry.stackHeight(),
              };
            }),
          },
        ],
  );
}

/** What a program returned, if anything (LiteSVM reports an empty return as the system program's). */
export function returnDataOf(meta: TransactionMetadata): LocalTransaction["returnData"] {
  const returned = meta.returnData();
  const data = returned.data();
  if (data.length === 0) return null;
  return { programId: getAddressDecoder().decode(returned.programId()), data };
}
