import type { NetworkConfig } from "./networks";

/** What an agent's x402 transaction must do: move exactly `units` of `asset` to `payTo`, carrying `memo`. */
export type X402TransactionTerms = {
  payTo: string;
  asset: string;
  units: bigint;
  decimals: number;
  memo: string;
};

/** An agent's transaction that passed the checks, completed by our signature (not sent). */
export type X402CosignedTransaction = {
  /** Who signed the transfer (the token account's owner). */
  payer: string;
  /** The transaction's id (Solana: our signature): signatures are deterministic, so a copy has the same one. */
  id: string;
  /** The complete transaction as the node takes it (base64). */
  signed: string;
  /** The highest block height it can still land at, or lower once it can no longer land. */
  lastValidHeight: bigint;
  /** The slot the chain was at when we signed it: a node behind it cannot say where it stands. */
  slot: bigint;
};

export type X402TransactionProgress = "confirmed" | "failed" | "pending" | "expired";

/**
 * x402's `exact` scheme where the agent signs a transaction that our facilitator completes as its
 * fee payer and sends (Solana). Absent from a family whose agents sign an authorization instead
 * (EVM's EIP-3009). The fee payer's key derives from the service mnemonic, passed in.
 */
export interface X402TransactionScheme {
  /**
   * The requirements' `extra`: who pays the fee (the network's `feePayer`, configured or derived,
   * so a tier without the key offers it too), and the memo the transaction must carry.
   */
  extra(network: NetworkConfig, memo: string): Record<string, string>;
  /**
   * Who signed the agent's transaction (base64), and an id of what it asks us to sign (any two
   * copies of it agree, and one id lands once), read without the chain and without any key: an
   * attacker's bytes are never signed before `check`. Undefined when it is no transaction.
   */
  identify(transaction: string): { payer: string; id: string } | undefined;
  /**
   * Checks the agent's transaction (base64) against the terms and the chain (its blockhash still
   * valid, a simulation succeeding) and co-signs it; else a refusal code (x402's SVM codes).
   * Throws when the node cannot answer.
   */
  check(
    network: NetworkConfig,
    mnemonic: string,
    transaction: string,
    terms: X402TransactionTerms,
  ): Promise<X402CosignedTransaction | { refusal: string }>;
  /**
   * Sends the co-signed bytes while they can land (the same bytes land at most once) and says
   * where they stand at the network's commitment: one step, called again while pending, by the
   * settler or, from the row's copy, by whoever takes its settlement over (a takeover, the
   * stuck-settlement resolver). Throws when the node cannot answer.
   */
  follow(network: NetworkConfig, transaction: X402CosignedTransaction): Promise<X402TransactionProgress>;
}
