import {
  type Address,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  type Transaction,
} from "@solana/kit";
import { SYSTEM_PROGRAM_ADDRESS } from "@solana-program/system";
import { Clock, EpochSchedule, FailedTransactionMetadata, LiteSVM } from "litesvm";
import { type TransactionErrorJson, transactionError, transactionErrorJson } from "./litesvm-errors";
import { localSolanaFunder } from "./local-solana-accounts";
import {
  accountKeysOf,
  innerInstructionsOf,
  type LocalMessage,
  type LocalTransaction,
  lamportsOf,
  loadedAddressesOf,
  returnDataOf,
  snapshot,
  tokenBalances,
} from "./local-transaction-record";
import type { ChainAccount } from "./token-amounts";

export type Commitment = "processed" | "confirmed" | "finalized";

export type LocalSolanaChainOptions = {
  /** How long a slot lasts (a real cluster's is about 400 ms). */
  slotMs?: number;
  /** Slots after which a transaction's slot is finalized (a real cluster roots about 32 behind). */
  finalityDepth?: number;
  /** The clock, in milliseconds: tests move it by hand. */
  now?: () => number;
};

/** A transaction the chain could not take: bad bytes, or a version it does not run. */
export class InvalidTransactionError extends Error {}

/** What sending did: executed (perhaps failing, with its fee charged) or refused before execution. */
export type SendOutcome =
  | { included: true; transaction: LocalTransaction }
  | { included: false; err: TransactionErrorJson; logs: string[] };

export type SimulateOutcome = {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  returnData: LocalTransaction["returnData"];
  /** The accounts after the simulated transaction, when it succeeded. */
  postAccounts: ChainAccount[] | null;
};

/** Blocks a blockhash stays valid for, as on a real cluster (MAX_PROCESSING_AGE). */
const blockhashValidity = 150n;
const slotsPerEpoch = 432_000n;
/** The funder's SOL at genesis: a billion. */
const genesisLamports = 1_000_000_000n * 1_000_000_000n;

/**
 * The zero-setup Solana chain: a LiteSVM instance (the real SVM, in process) with what a cluster
 * has around it and LiteSVM does not keep: slots that advance with time, blockhashes that expire,
 * confirmation levels, and a history of executed transactions (with their balances before and
 * after) indexed by every account they touch, for getTransaction and getSignaturesForAddress.
 * Account reads show the newest state at every commitment; only transactions are told apart by it.
 */
export class LocalSolanaChain {
  readonly svm: LiteSVM;
  private readonly now: () => number;
  private readonly slotMs: number;
  private readonly finalityDepth: bigint;
  private readonly startMs: number;
  private currentSlot = 0n;
  /** Blockhashes handed out, with the last block height each is valid at. */
  private readonly blockhashes = new Map<string, bigint>();
  private latest: { blockhash: string; slot: bigint };
  private readonly transactions = new Map<string, LocalTransaction>();
  private readonly byAddress = new Map<string, LocalTransaction[]>();
  private historyFrom = 0n;

  constructor(options: LocalSolanaChainOptions = {}) {
    this.now = options.now ?? Date.now;
    this.slotMs = options.slotMs ?? 400;
    this.finalityDepth = BigInt(options.finalityDepth ?? 32);
    this.startMs = this.now();
    // The chain checks blockhashes itself: LiteSVM accepts only its latest one, a cluster any of
    // the last 150 blocks'.
    this.svm = new LiteSVM().withBlockhashCheck(false);
    this.svm.setEpochSchedule(new EpochSchedule(slotsPerEpoch, slotsPerEpoch, false, 0n, 0n));
    this.setClock(0n);
    // Genesis: the funder holds the chain's SOL, as a test validator's faucet does.
    this.svm.setAccount({
      address: localSolanaFunder.address as Address,
      lamports: lamports(genesisLamports),
      data: new Uint8Array(),
      programAddress: SYSTEM_PROGRAM_ADDRESS,
      executable: false,
      space: 0n,
    });
    this.latest = { blockhash: this.svm.latestBlockhash(), slot: 0n };
    this.blockhashes.set(this.latest.blockhash, blockhashValidity);
  }

  private setClock(slot: bigint) {
    const seconds = (ms: number) => BigInt(Math.floor(ms / 1000));
    const epoch = slot / slotsPerEpoch;
    this.svm.setClock(new Clock(slot, seconds(this.startMs), epoch, epoch + 1n, seconds(this.now())));
    this.currentSlot = slot;
  }

  /** Moves the chain to the slot the clock says (slots are never skipped, so block height is the slot). */
  private tick() {
    const slot = BigInt(Math.max(0, Math.floor((this.now() - this.startMs) / this.slotMs)));
    if (slot > this.currentSlot) this.setClock(slot);
  }

  /** The newest slot at `commitment`: confirmed one behind the tip, finalized `finalityDepth` behind. */
  slot(commitment: Commitment = "finalized"): bigint {
    this.tick();
    const behind = commitment === "processed" ? 0n : commitment === "confirmed" ? 1n : this.finalityDepth;
    return this.currentSlot > behind ? this.currentSlot - behind : 0n;
  }

  /** The chain's clock in unix seconds. */
  unixTimestamp(): bigint {
    this.tick();
    return this.svm.getClock().unixTimestamp;
  }

  epochSchedule() {
    return { slotsPerEpoch, epoch: (slot: bigint) => slot / slotsPerEpoch };
  }

  /** A blockhash for new transactions: a new one each slot, valid for the next 150 blocks. */
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    this.tick();
    if (this.currentSlot > this.latest.slot) {
      this.svm.expireBlockhash();
      this.latest = { blockhash: this.svm.latestBlockhash(), slot: this.currentSlot };
      this.blockhashes.set(this.latest.blockhash, this.currentSlot + blockhashValidity);
      for (const [blockhash, lastValid] of this.blockhashes)
        if (lastValid < this.currentSlot) this.blockhashes.delete(blockhash);
    }
    const lastValidBlockHeight = this.blockhashes.get(this.latest.blockhash) ?? 0n;
    return { blockhash: this.latest.blockhash, lastValidBlockHeight };
  }

  isBlockhashValid(blockhash: string): boolean {
    this.tick();
    const lastValid = this.blockhashes.get(blockhash);
    return lastValid !== undefined && lastValid >= this.currentSlot;
  }

  account(address: Address): ChainAccount {
    return this.svm.getAccount(address);
  }

  /** Decodes a wire transaction; throws InvalidTransactionError when it is not a legacy or v0 one. */
  decode(wire: Uint8Array): { transaction: Transaction; message: LocalMessage; signature: string } {
    let transaction: Transaction;
    let message: LocalMessage;
    try {
      transaction = getTransactionDecoder().decode(wire);
      message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes) as LocalMessage;
    } catch (error) {
      throw new InvalidTransactionError(`failed to deserialize the transaction: ${(error as Error).message}`);
    }
    if (message.version !== "legacy" && message.version !== 0)
      throw new InvalidTransactionError(
        `unsupported transaction version ${String((message as { version: unknown }).version)}`,
      );
    const first = Object.values(transaction.signatures)[0];
    const signature = getBase58Decoder().decode(first ?? new Uint8Array(64));
    return { transaction, message, signature };
  }

  /** Why a transaction would be refused before execution, if it would. */
  private refusal(signature: string, message: LocalMessage, checkBlockhash: boolean) {
    if (this.transactions.has(signature)) return transactionError("AlreadyProcessed");
    if (checkBlockhash && !this.isBlockhashValid(message.lifetimeToken))
      return transactionError("BlockhashNotFound");
    return null;
  }

  /** Executes a transaction in the current slot, as a leader would (no preflight: see simulate). */
  send(wire: Uint8Array): SendOutcome {
    this.tick();
    const { transaction, message, signature } = this.decode(wire);
    const refused = this.refusal(signature, message, true);
    if (refused) return { included: false, err: refused, logs: [] };
    const loadedAddresses = loadedAddressesOf(this.svm, message);
    const accountKeys = accountKeysOf(message, loadedAddresses);
    const before = snapshot(this.svm, accountKeys);
    const preTokenBalances = tokenBalances(this.svm, before);
    let result: ReturnType<LiteSVM["sendTransaction"]>;
    try {
      result = this.svm.sendTransaction(transaction);
    } catch {
      // LiteSVM's wrapper refuses a transaction missing a signature before the runtime sees it.
      return { included: false, err: transactionError("SignatureFailure"), logs: [] };
    }
    const failed = result instanceof FailedTransactionMetadata ? result : null;
    const meta = failed ? failed.meta() : (result as Exclude<typeof result, FailedTransactionMetadata>);
    // A failure LiteSVM did not record charged no fee and changed nothing: it never landed.
    if (failed && this.svm.getTransaction(signature as never) === null)
      return { included: false, err: transactionErrorJson(failed), logs: meta.logs() };
    const after = snapshot(this.svm, accountKeys);
    const preBalances = before.map(lamportsOf);
    const postBalances = after.map(lamportsOf);
    const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
    const recorded: LocalTransaction = {
      signature,
      sequence: this.transactions.size,
      slot: this.currentSlot,
      blockTime: this.svm.getClock().unixTimestamp,
      wire,
      message,
      accountKeys,
      loadedAddresses,
      err: failed ? transactionErrorJson(failed) : null,
      // Instructions move lamports between the transaction's accounts and never make or burn
      // any: what the accounts lost together is the fee, exactly as the runtime charged it.
      fee: sum(preBalances) - sum(postBalances),
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances: tokenBalances(this.svm, after),
      logs: meta.logs(),
      innerInstructions: innerInstructionsOf(meta),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      returnData: returnDataOf(meta),
    };
    this.transactions.set(signature, recorded);
    for (const key of new Set(accountKeys.map((entry) => entry.address))) {
      const list = this.byAddress.get(key) ?? [];
      list.push(recorded);
      this.byAddress.set(key, list);
    }
    return { included: true, transaction: recorded };
  }

  /**
   * Runs a transaction against the current state without keeping anything. `sigVerify` false
   * skips signature checks (fee estimates of unsigned transactions); `replaceRecentBlockhash`
   * skips the blockhash check, as the RPC's options of those names.
   */
  simulate(
    wire: Uint8Array,
    options: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): SimulateOutcome {
    this.tick();
    const { transaction, message, signature } = this.decode(wire);
    const refused = this.refusal(signature, message, !options.replaceRecentBlockhash);
    const none = { logs: [], unitsConsumed: 0n, returnData: null, postAccounts: null };
    if (refused && (options.sigVerify || refused !== "AlreadyProcessed")) return { err: refused, ...none };
    this.svm.withSigverify(options.sigVerify);
    try {
      const result = this.svm.simulateTransaction(transaction);
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta();
        return {
          err: transactionErrorJson(result),
          logs: meta.logs(),
          unitsConsumed: meta.computeUnitsConsumed(),
          returnData: returnDataOf(meta),
          postAccounts: null,
        };
      }
      const meta = result.meta();
      return {
        err: null,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        returnData: returnDataOf(meta),
        postAccounts: result.postAccounts().map((account) => ({ ...account, exists: true as const })),
      };
    } catch {
      return { err: transactionError("SignatureFailure"), ...none };
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /** An executed transaction by signature, unless its slot is before the history kept (`forgetHistoryBefore`). */
  transaction(signature: string): LocalTransaction | undefined {
    const found = this.transactions.get(signature);
    return found && found.slot >= this.historyFrom ? found : undefined;
  }

  /**
   * As a node that pruned its ledger: transactions before `slot` are no longer found by signature
   * (statuses, getTransaction), for tests of what must not take "unknown" for "never landed".
   */
  forgetHistoryBefore(slot: bigint) {
    this.historyFrom = slot;
  }

  /** How final a transaction's slot is now. */
  status(transaction: LocalTransaction): { confirmations: number | null; confirmationStatus: Commitment } {
    this.tick();
    const behind = this.currentSlot - transaction.slot;
    if (behind >= this.finalityDepth) return { confirmations: null, confirmationStatus: "finalized" };
    return { confirmations: Number(behind), confirmationStatus: behind > 0n ? "confirmed" : "processed" };
  }

  /**
   * Transactions that touched `address`, newest first, from slots up to `maxSlot`: older than
   * `before` and newer than `until` (signatures), at most `limit`.
   */
  history(
    address: string,
    options: { maxSlot: bigint; limit: number; before?: string; until?: string },
  ): LocalTransaction[] {
    const list = this.byAddress.get(address) ?? [];
    const beforeSequence = options.before ? this.transactions.get(options.before)?.sequence : undefined;
    const untilSequence = options.until ? (this.transactions.get(options.until)?.sequence ?? -1) : -1;
    const found: LocalTransaction[] = [];
    for (let index = list.length - 1; index >= 0 && found.length < options.limit; index--) {
      const transaction = list[index];
      if (transaction.sequence <= untilSequence) break;
      if (beforeSequence !== undefined && transaction.sequence >= beforeSequence) continue;
      if (transaction.slot <= options.maxSlot) found.push(transaction);
    }
    return found;
  }

  /** How many transactions the chain executed. */
  transactionCount(): number {
    return this.transactions.size;
  }
}
