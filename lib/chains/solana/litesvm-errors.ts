import type { FailedTransactionMetadata } from "litesvm";
import {
  InstructionErrorCustom,
  type InstructionErrorFieldless,
  TransactionErrorDuplicateInstruction,
  type TransactionErrorFieldless,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
} from "litesvm/dist/internal";

// LiteSVM reports errors as numbers of its own enums (litesvm/dist/internal.d.ts), which differ
// from the RPC's order (no InstructionError, Custom or BorshIoError among them). The tables below
// name each number; the type checker holds every entry to the enum's value, so a LiteSVM release
// that renumbers them fails to compile rather than misnames an error.

type Numbered<Enum> = { [Name in keyof Enum]: Enum[Name] };

const transactionErrors = {
  AccountInUse: 0,
  AccountLoadedTwice: 1,
  AccountNotFound: 2,
  ProgramAccountNotFound: 3,
  InsufficientFundsForFee: 4,
  InvalidAccountForFee: 5,
  AlreadyProcessed: 6,
  BlockhashNotFound: 7,
  CallChainTooDeep: 8,
  MissingSignatureForFee: 9,
  InvalidAccountIndex: 10,
  SignatureFailure: 11,
  InvalidProgramForExecution: 12,
  SanitizeFailure: 13,
  ClusterMaintenance: 14,
  AccountBorrowOutstanding: 15,
  WouldExceedMaxBlockCostLimit: 16,
  UnsupportedVersion: 17,
  InvalidWritableAccount: 18,
  WouldExceedMaxAccountCostLimit: 19,
  WouldExceedAccountDataBlockLimit: 20,
  TooManyAccountLocks: 21,
  AddressLookupTableNotFound: 22,
  InvalidAddressLookupTableOwner: 23,
  InvalidAddressLookupTableData: 24,
  InvalidAddressLookupTableIndex: 25,
  InvalidRentPayingAccount: 26,
  WouldExceedMaxVoteCostLimit: 27,
  WouldExceedAccountDataTotalLimit: 28,
  MaxLoadedAccountsDataSizeExceeded: 29,
  ResanitizationNeeded: 30,
  InvalidLoadedAccountsDataSizeLimit: 31,
  UnbalancedTransaction: 32,
  ProgramCacheHitMaxLimit: 33,
  CommitCancelled: 34,
} as const satisfies Numbered<typeof TransactionErrorFieldless>;

const instructionErrors = {
  GenericError: 0,
  InvalidArgument: 1,
  InvalidInstructionData: 2,
  InvalidAccountData: 3,
  AccountDataTooSmall: 4,
  InsufficientFunds: 5,
  IncorrectProgramId: 6,
  MissingRequiredSignature: 7,
  AccountAlreadyInitialized: 8,
  UninitializedAccount: 9,
  UnbalancedInstruction: 10,
  ModifiedProgramId: 11,
  ExternalAccountLamportSpend: 12,
  ExternalAccountDataModified: 13,
  ReadonlyLamportChange: 14,
  ReadonlyDataModified: 15,
  DuplicateAccountIndex: 16,
  ExecutableModified: 17,
  RentEpochModified: 18,
  NotEnoughAccountKeys: 19,
  AccountDataSizeChanged: 20,
  AccountNotExecutable: 21,
  AccountBorrowFailed: 22,
  AccountBorrowOutstanding: 23,
  DuplicateAccountOutOfSync: 24,
  InvalidError: 25,
  ExecutableDataModified: 26,
  ExecutableLamportChange: 27,
  ExecutableAccountNotRentExempt: 28,
  UnsupportedProgramId: 29,
  CallDepth: 30,
  MissingAccount: 31,
  ReentrancyNotAllowed: 32,
  MaxSeedLengthExceeded: 33,
  InvalidSeeds: 34,
  InvalidRealloc: 35,
  ComputationalBudgetExceeded: 36,
  PrivilegeEscalation: 37,
  ProgramEnvironmentSetupFailure: 38,
  ProgramFailedToComplete: 39,
  ProgramFailedToCompile: 40,
  Immutable: 41,
  IncorrectAuthority: 42,
  AccountNotRentExempt: 43,
  InvalidAccountOwner: 44,
  ArithmeticOverflow: 45,
  UnsupportedSysvar: 46,
  IllegalOwner: 47,
  MaxAccountsDataAllocationsExceeded: 48,
  MaxAccountsExceeded: 49,
  MaxInstructionTraceLengthExceeded: 50,
  BuiltinProgramsMustConsumeComputeUnits: 51,
  BorshIoError: 52,
} as const satisfies Numbered<typeof InstructionErrorFieldless>;

const nameOf = (table: Record<string, number>, value: number) =>
  Object.keys(table).find((name) => table[name] === value) ?? `Unknown(${value})`;

/** A transaction error as the Solana RPC writes it: "BlockhashNotFound", {"InstructionError":[0,{"Custom":1}]}. */
export type TransactionErrorJson = string | Record<string, unknown>;

/** A transaction error named by the RPC as `name`, without fields. */
export const transactionError = (name: keyof typeof transactionErrors): TransactionErrorJson => name;

function instructionErrorJson(error: unknown): unknown {
  if (typeof error === "number") return nameOf(instructionErrors, error);
  if (error instanceof InstructionErrorCustom) return { Custom: error.code };
  return { BorshIoError: (error as { msg?: string }).msg ?? "" };
}

/** LiteSVM's error of a failed transaction in the RPC's JSON form (what kit's error decoder reads). */
export function transactionErrorJson(failed: FailedTransactionMetadata): TransactionErrorJson {
  const error: unknown = failed.err();
  if (typeof error === "number") return nameOf(transactionErrors, error);
  if (error instanceof TransactionErrorInstructionError)
    return { InstructionError: [error.index, instructionErrorJson(error.err())] };
  if (error instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: error.index };
  const accountIndex = (error as TransactionErrorInsufficientFundsForRent).accountIndex;
  if (error instanceof TransactionErrorInsufficientFundsForRent)
    return { InsufficientFundsForRent: { account_index: accountIndex } };
  return { ProgramExecutionTemporarilyRestricted: { account_index: accountIndex } };
}
