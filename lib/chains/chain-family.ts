import type { NetworkConfig } from "./networks";
import type { X402TransactionScheme } from "./x402-transaction-scheme";

// The one interface a chain family (EVM; Solana next) implements. Domain code (lib/payments,
// lib/sweeps, lib/refunds, lib/x402, lib/settlement, lib/signer) reaches a chain only through it,
// by `chainFamily(network)` (chain-families.ts), and never branches on the family itself
// (scripts/chain-family-branches.test.ts). Nothing here names an EVM-only notion (0x, gas, nonce,
// log, block hash): each family maps its own onto these words. Adding a family: docs/architecture.md.

/** The families this service speaks; a network belongs to one (NetworkConfig.family, EVM by default). */
export const chainFamilyIds = ["evm", "solana"] as const;
export type ChainFamilyId = (typeof chainFamilyIds)[number];

/**
 * An address as a person typed it, judged: the family's canonical spelling, or the problem with
 * it and a message that completes "<field> …" ("must be …", "has …").
 */
export type ParsedAddress = { address: string } | { problem: "format" | "checksum"; message: string };

/** How a family writes, checks and compares addresses (wallets, deposit addresses, token ids). */
export interface AddressRules {
  /** What an address looks like, for messages: "an EVM address (0x followed by 40 hex digits)". */
  format: string;
  /** A form input's hint of it ("0x…") and the HTML pattern a typed one matches (spaces around allowed). */
  input: { placeholder: string; pattern: string };
  /**
   * Checks an address typed by a person (a settlement wallet, a refund destination, a claim page's
   * answer) and returns its canonical spelling: EVM checksums it (a wrong EIP-55 checksum is refused,
   * so a typo cannot send money elsewhere); Solana takes base58 of a 32-byte key.
   */
  parse(value: string): ParsedAddress;
  /** The key equal addresses share, for maps and comparisons (EVM: lower case; base58 is case-sensitive). */
  key(address: string): string;
  /** Whether money sent there is lost to everyone (EVM's zero address), so nothing may be sent there. */
  isBurn(address: string): boolean;
}

/** The service's deposit key material as this tier holds it (lib/config.ts): a public key suffices. */
export type DepositKeys = { hdXpub?: string; hdMnemonic?: string };

/**
 * Where one invoice is paid: the address the buyer pays, and, when that address is shared by many
 * invoices (Solana Pay's recipient), the reference key its transfers carry, unique per invoice.
 * The watcher matches a transfer to its invoice by the reference when there is one, else by the
 * address (AddressRules.key of either).
 */
export type PaymentReceiver = { address: string; reference: string | null };

/** A test wallet's payment to an invoice on a local chain. */
export type TestWalletPayment = {
  receiver: PaymentReceiver;
  token: { symbol: string; decimals: number; address?: string };
  /** In the token's base units. */
  units: bigint;
};

/** A browser wallet's payment of an invoice: the transaction the service builds for it to sign and send. */
export type WalletTransactionRequest = {
  /** The paying wallet's address (its family's canonical spelling). */
  account: string;
  receiver: PaymentReceiver;
  token: { symbol: string; decimals: number; address?: string };
  /** In the token's base units. */
  units: bigint;
};

/**
 * Paying from a Wallet Standard wallet in the browser (Phantom, Solflare, Backpack): the chain id
 * wallets know the network by, and the unsigned transaction the service builds (the browser has
 * no node to ask for a recent blockhash), which the wallet signs and sends.
 */
export interface WalletStandardPayment {
  /** The Wallet Standard chain (`solana:mainnet`, `solana:devnet`, `solana:localnet`). */
  chain(network: NetworkConfig): string;
  /** The transaction to sign, serialized for the wire (base64), the wallet its fee payer. */
  transaction(network: NetworkConfig, request: WalletTransactionRequest): Promise<string>;
}

/** What a wallet is asked to pay, for the hosted page's QR code and wallet link. */
export type PaymentRequestInput = {
  receiver: PaymentReceiver;
  /** The amount left to pay, as a decimal string in the token. */
  remaining: string;
  token: { symbol: string; decimals: number; address?: string };
  /** Shown by wallets that show it (Solana Pay's label and message). */
  label: string;
  message: string;
};

/** A transfer into a watched receiver, as the chain reports it, before the database is asked about it. */
export type ObservedTransfer = {
  /** The token's symbol in the network's configuration. */
  token: string;
  /**
   * The key it paid (AddressRules.key of the receiver): a watched one, or, where it paid a shared
   * receiver carrying no watched reference, each key it carries, for the watcher to look up among
   * the invoices it no longer watches (a CONFIRMED one, one past its late window).
   */
  receiver: string;
  /** The transaction: EVM hash, Solana signature. */
  transaction: string;
  /** Its place inside the transaction, unique with it (EVM log index, -1 for a native transfer). */
  index: number;
  /** Amount in the token's base units. */
  units: bigint;
  /** Where it landed: a block number (EVM) or a slot (Solana). */
  position: bigint;
  /** The id of the block at that position, compared later to notice that it was replaced. */
  block: string;
  /** Who paid, in the family's canonical spelling (EVM: the zero address when unknown, a mint). */
  payer: string;
};

/** What the watcher watches on one network: keyed receivers per token, and what the reader learnt. */
export type WatchedReceivers = {
  /** The watched keys (AddressRules.key) in a token; the values are the watcher's own. */
  receivers(token: string): ReadonlyMap<string, unknown>;
  /** Numbers a reader learns per token and keeps across scans (EVM: transfer logs per block). */
  learnt: Map<string, number>;
};

/** What a read got through: every transfer up to `readTo`, a position of the range read. */
export type TransferChunk = { transfers: ObservedTransfer[]; readTo: bigint };

/** A range of positions to read, both ends included. */
export type ReadRange = { from: bigint; to: bigint; signal?: AbortSignal };

/**
 * The watcher's chain-reading phase on one network (lib/payments/scan-network.ts is the database
 * phase): where the chain is, what transfers reached watched receivers, and which blocks still stand.
 * Its calls per read must not grow with the number of open invoices.
 */
export interface TransferReader {
  /** The newest position the watcher may scan up to. */
  head(): Promise<bigint>;
  /** Most positions one `transfers` call may span; the watcher catches up a longer gap in ranges. */
  maxRange: bigint;
  /**
   * Successful transfers into watched receivers in the range (a failed transaction moved nothing),
   * in chunks, oldest first, the last one read to the range's end: the watcher records each chunk
   * and moves its cursor to its `readTo` before the next, so a range holding a flood of
   * transactions to read (a call each) is got through a chunk at a time, never restarted whole.
   */
  transfers(range: ReadRange, watched: WatchedReceivers): AsyncIterable<TransferChunk>;
  /**
   * The block id now at each position, null where none can be read: a counted payment whose
   * block id changed was reorganised away.
   */
  blockIds(positions: bigint[]): Promise<Map<bigint, string | null>>;
}

/**
 * The service's own wallets on a family that signs from them (ServiceTransfers): the receiving
 * wallet every invoice pays, an organization's refund wallet (its Organization.refundWalletIndex),
 * and the fee payer, which pays every transfer's fee (and any account it must create).
 */
export type ServiceWalletRole = "receiving" | "refund" | "feePayer";
export type ServiceWallet = { role: ServiceWalletRole; index?: number };

/** A coin fees are paid in. */
export type FeeCoin = { symbol: string; decimals: number };

/** A token transfer the signing role asks for, from one of its own wallets. */
export type ServiceTransferRequest = {
  from: ServiceWallet;
  /** The destination wallet (its owner, in the family's canonical spelling). */
  to: string;
  token: { symbol: string; decimals: number; address?: string };
  /** In the token's base units. */
  units: bigint;
  /** Carried on chain for the payee's records (a refund's id), where the family can. */
  memo?: string;
  /**
   * Pay only an account that can already hold the token (Solana: the destination's token account):
   * refused rather than opened at the fee payer's cost, which a payee who closes it gets back.
   */
  existingAccountOnly?: boolean;
};

/**
 * A signed transfer not yet known to be on chain, as the signing role stores it before sending it
 * (SignedTransaction: hash = id, raw, validUntil): it can land at most once, and never once the
 * chain is past `validUntil`.
 */
export type SignedServiceTransfer = { id: string; signer: string; raw: string; validUntil: bigint };

/**
 * Why a transfer was not signed, as words that complete "refused: …"; `code` names it for
 * metrics and the API (the destination is no wallet, the amount is not a token amount, …).
 */
export type ServiceTransferRefusal = { state: "refused"; code: string; reason: string };

/**
 * Where a signed transfer stands at the network's commitment: confirmed or failed at a position
 * (its fee spent either way); pending (`rejected` is the node's word on it just now, when it
 * refused it: it may still land); expired: it never landed and never will, so its payment may be
 * signed anew.
 */
export type ServiceTransferProgress =
  | { state: "confirmed"; position: bigint }
  | { state: "failed"; position: bigint; reason: string }
  | { state: "pending"; rejected?: string }
  | { state: "expired" };

/**
 * Transfers the signing role signs from the service's own wallets, a fee payer paying their fees:
 * where a family's invoices pay a shared receiving wallet (Solana), sweeps and refunds pay from it.
 * Absent where each invoice has a deposit address that pays its own way (EVM: lib/signer/).
 */
export interface ServiceTransfers {
  /** The address of the service's wallet in a role (and organization index, for refunds). */
  wallet(network: NetworkConfig, mnemonic: string, role: ServiceWalletRole, index?: number): string;
  /**
   * Signs a transfer, and sends nothing: the caller records it, then sends it with `follow`. Reads
   * the chain (the destination must be a wallet; a recent position bounds the transfer's life).
   */
  sign(
    network: NetworkConfig,
    mnemonic: string,
    request: ServiceTransferRequest,
  ): Promise<{ state: "signed"; transfer: SignedServiceTransfer } | ServiceTransferRefusal>;
  /**
   * One step of following a recorded transfer: reads where it stands and, while the chain has not
   * seen it and it can still land, sends the same bytes again (they land at most once). Call it
   * until it is no longer pending; only then is `expired` final.
   */
  follow(network: NetworkConfig, transfer: SignedServiceTransfer): Promise<ServiceTransferProgress>;
  /** An address's balance in the token's base units (the native coin for a token without address). */
  balance(network: NetworkConfig, address: string, token?: { address?: string }): Promise<bigint>;
  /** The native coin the fee payer pays fees in (symbol and decimals), for reports. */
  feeCoin: FeeCoin;
  /** The most one transfer costs the fee payer (its fee and a new token account's rent), in feeCoin's base units. */
  feeReserve: bigint;
}

/** A payment as the watcher recorded it, to be read again on chain. */
export type PaymentOnChain = {
  /** The transaction (Solana: signature) and the transfer's place in it (ObservedTransfer.index). */
  transaction: string;
  index: number;
  /** The address the invoice paid (the deposit address; Solana's receiving wallet). */
  receiver: string;
  token: { symbol: string; decimals: number; address?: string };
  /** Who the row says paid. */
  payer: string;
};

/** How a reader may be told to read; tests compare a family's ways (EVM: `logQuery`, read-evm-transfers.ts). */
export type ReadTuning = { logQuery?: "by-address" | "all" };

/**
 * One chain family. `Client` is its connection to a network's node (EVM: viem's PublicClient),
 * made once per network and process by `client`, or handed in by a caller that counts calls.
 */
export interface ChainFamily<Client> {
  readonly id: ChainFamilyId;
  readonly addresses: AddressRules;
  /** What people call a transfer's position (ObservedTransfer.position): "block" (EVM), "slot" (Solana). */
  readonly positionName: "block" | "slot";
  /**
   * Where invoices at these derivation indexes are paid (an index belongs to one invoice or x402
   * quote, once). EVM derives one address per index by BIP32 public derivation, so the account's
   * xpub suffices and the web tier holds no private key; Solana has no public derivation, so every
   * invoice pays the network's receiving wallet with a fresh random reference (Solana Pay).
   */
  paymentReceivers(network: NetworkConfig, keys: DepositKeys, indexes: number[]): PaymentReceiver[];
  /** The wallet link and QR code's text for paying the remaining amount (EIP-681; Solana Pay). */
  paymentUri(network: NetworkConfig, request: PaymentRequestInput): string;
  /**
   * The network as configured, completed with what this family derives from the service's keys
   * (Solana: the receiving wallet, from the mnemonic when no address is configured); an Error
   * saying what is missing when it cannot be completed.
   */
  completeNetwork(network: NetworkConfig, keys: DepositKeys): NetworkConfig;
  /**
   * Whether the signing role sends on this family's networks yet (sweeps, refunds, gas). When
   * false, payments are watched and confirmed, and their funds wait in the receiving wallet.
   */
  readonly sends: boolean;
  /**
   * Transfers from the service's own wallets, a fee payer paying the fees (Solana's sweeps and
   * refunds); absent where deposit addresses sign their own sweeps (EVM, lib/signer/).
   */
  readonly serviceTransfers?: ServiceTransfers;
  /**
   * A local chain's test wallet (its keys public, the network flagged devnet) pays an invoice as
   * the family's wallets do, topped up first; returns the transaction once it is on chain.
   */
  payFromTestWallet(network: NetworkConfig, payment: TestWalletPayment): Promise<string>;
  /**
   * Why money sent to `address` as its owner would reach nobody who can spend it, as words that
   * complete "<address> is …" ("a token account, not a wallet"), or null for a wallet. Reads the
   * chain (a node that cannot answer throws). Absent where every address `addresses.parse` accepts
   * may be a wallet's (EVM).
   */
  walletProblem?(network: NetworkConfig, address: string): Promise<string | null>;
  /**
   * On a network flagged `devnet` only (a local chain whose funder's keys are public): gives a
   * service wallet (an organization's refund wallet) the chain's test funds it lacks: `tokens`
   * whole tokens of each token the network lists, and the coin its fees need; returns whether it
   * gave anything.
   * Absent where the signing role funds its wallets otherwise (EVM: lib/chains/fund-devnet-wallet.ts).
   */
  fundDevnetWallet?(network: NetworkConfig, address: string, tokens: bigint): Promise<boolean>;
  /**
   * Whether a recorded payment stands on chain, paid by the payer its row names: the signer reads
   * it again before a refund goes to the payer, since a row can be wrong or changed. A node that
   * cannot answer throws. Absent where the signer reads it otherwise (EVM:
   * lib/refunds/check-payer-on-chain.ts).
   */
  confirmsPayer?(network: NetworkConfig, payment: PaymentOnChain): Promise<boolean>;
  /** Paying from a Wallet Standard wallet; absent where wallets pay otherwise (EVM: EIP-1193 in the page). */
  readonly walletStandard?: WalletStandardPayment;
  /** The network's CAIP-2 id, as x402 names it (EVM: `eip155:<chain id>`; Solana: `solana:<genesis hash prefix>`). */
  caip2(network: NetworkConfig): `${string}:${string}`;
  /** x402 paid by a transaction our facilitator co-signs as fee payer; absent where agents sign an authorization (EVM). */
  readonly x402Transactions?: X402TransactionScheme;
  /**
   * The coin the network's fees are paid in (ETH, POL; SOL), as what our wallets spend is priced
   * (lib/prices/find-usd-price.ts by its symbol) and shown: EVM's is the token without address the
   * network lists; Solana's is SOL, which its networks do not list (not offered for payment).
   * Undefined where the network names none.
   */
  nativeCoin(network: NetworkConfig): FeeCoin | undefined;
  /**
   * The most one x402 settlement can cost the wallet that pays its fee, now, in the native coin's
   * base units (EVM: a transferWithAuthorization's gas at the fee per gas the facilitator would
   * offer; Solana: the base fee of the two signatures and the priority fee at the compute caps
   * our checks allow). Reads the node; throws when it cannot answer.
   */
  x402SettlementFee(network: NetworkConfig): Promise<bigint>;
  /** The process's connection to the network's node. */
  client(network: NetworkConfig): Client;
  /** The watcher's chain reader over a connection. */
  transferReader(client: Client, network: NetworkConfig, tuning?: ReadTuning): TransferReader;
  /** Whether an error came from the node (counted as an RPC error) rather than from this service. */
  isRpcError(error: unknown): boolean;
}
