import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import { chainFamily } from "../chains/chain-families";
import type { NetworkConfig } from "../chains/networks";
import type { X402TransactionScheme, X402TransactionTerms } from "../chains/x402-transaction-scheme";
import type { Db } from "../db/client";
import { followX402Transaction } from "./follow-x402-transaction";
import { recordedX402Transaction } from "./record-x402-payment";
import { recordX402TransactionOutcome } from "./record-x402-transaction-outcome";
import { x402TransactionAssets } from "./x402-networks";

/** A payment the transaction facilitator takes: its network, scheme, agent's transaction and terms. */
type Taken = {
  network: NetworkConfig;
  scheme: X402TransactionScheme;
  transaction: string;
  terms: X402TransactionTerms;
};

/**
 * The signing role's facilitator for x402 payments by transaction (x402's SVM `exact` scheme),
 * served over HTTP to a web tier that holds no key (lib/x402/create-built-in-facilitator.ts routes
 * these networks here). Its fee payer co-signs only what the checks take
 * (X402TransactionScheme.check): the configured token, into this network's own receiving wallet,
 * the memo the requirements name. `verify` checks and signs nothing it keeps. `settle` takes only
 * a payment the web tier recorded and awaits (a SETTLING row keyed by the transaction, with that
 * payee, amount and memo): it checks again, records the co-signed transaction on the row before
 * sending it (a row that already has one is followed, never signed anew), sends and follows it
 * until the chain decides or its wait ends, and records the outcome. So a caller holding the
 * facilitator's token can only have it settle the web tier's own recorded payments, once.
 */
export function createTransactionFacilitator(options: {
  mnemonic: string;
  networks: NetworkConfig[];
  database: () => Db;
}) {
  const assets = x402TransactionAssets(options.networks);

  /** The payment as this facilitator takes it, or the x402 code it is refused with. */
  function take(payload: PaymentPayload, requirements: PaymentRequirements): Taken | { refusal: string } {
    const asset = assets.find(
      (candidate) => candidate.network === requirements.network && candidate.asset === requirements.asset,
    );
    const network = options.networks.find((candidate) => candidate.id === asset?.networkId);
    const scheme = network && chainFamily(network).x402Transactions;
    if (!asset || !network || !scheme) return { refusal: "invalid_payment_requirements" };
    if (payload.x402Version !== 2) return { refusal: "invalid_x402_version" };
    if (requirements.scheme !== "exact" || payload.accepted.scheme !== "exact")
      return { refusal: "unsupported_scheme" };
    const { transaction } = payload.payload as { transaction?: unknown };
    const memo = requirements.extra?.memo;
    if (typeof transaction !== "string" || typeof memo !== "string" || !/^\d+$/.test(requirements.amount))
      return { refusal: "invalid_payload" };
    // Into this network's own receiving wallet only: the fee payer pays for nobody else's transfers.
    if (requirements.payTo !== network.receiver)
      return { refusal: "invalid_exact_svm_payload_recipient_mismatch" };
    const terms = {
      payTo: network.receiver,
      asset: asset.asset,
      units: BigInt(requirements.amount),
      decimals: asset.decimals,
      memo,
    };
    return { network, scheme, transaction, terms };
  }

  /** The SETTLING row the web tier recorded for exactly this payment, if any. */
  async function awaitedRow({ network, scheme, transaction, terms }: Taken) {
    const identity = scheme.identify(transaction);
    if (!identity) return undefined;
    const row = await options.database().x402Settlement.findUnique({
      where: {
        network_asset_payer_nonce: {
          network: network.id,
          asset: terms.asset,
          payer: identity.payer,
          nonce: identity.id,
        },
      },
      include: { invoice: { select: { reference: true } } },
    });
    const awaited =
      row?.status === "SETTLING" &&
      row.payTo === terms.payTo.toLowerCase() &&
      row.amount.toString() === terms.units.toString() &&
      row.invoice.reference === terms.memo;
    return awaited ? row : undefined;
  }

  /** The co-signed transaction recorded on the row: this call's, once recorded before sending, or an earlier one's. */
  async function recordedOrSigned(taken: Taken, row: NonNullable<Awaited<ReturnType<typeof awaitedRow>>>) {
    const recorded = recordedX402Transaction(row);
    if (recorded) return recorded;
    const checked = await taken.scheme.check(taken.network, options.mnemonic, taken.transaction, taken.terms);
    if ("refusal" in checked) return checked;
    const database = options.database();
    await database.x402Settlement.updateMany({
      // Only while its window is open: once past it, the web tier may decide it failed unsent.
      where: { id: row.id, status: "SETTLING", signedTransaction: null, validBefore: { gt: new Date() } },
      data: {
        transaction: checked.id,
        signedTransaction: checked.signed,
        lastValidHeight: checked.lastValidHeight,
        signedSlot: checked.slot,
      },
    });
    const now = await database.x402Settlement.findUniqueOrThrow({ where: { id: row.id } });
    return recordedX402Transaction(now) ?? { refusal: "payee_not_accepted" };
  }

  return {
    /** Whether these requirements are a payment by transaction this facilitator is set up for. */
    handles: (requirements: PaymentRequirements) =>
      assets.some((asset) => asset.network === requirements.network),
    /** x402's supported kinds for these networks, each with its fee payer. */
    kinds: () =>
      assets.map((asset) => ({
        x402Version: 2 as const,
        scheme: "exact",
        network: asset.network,
        extra: {
          feePayer: options.networks.find((network) => network.id === asset.networkId)?.feePayer ?? "",
        },
      })),
    async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
      const taken = take(payload, requirements);
      if ("refusal" in taken) return { isValid: false, invalidReason: taken.refusal };
      const checked = await taken.scheme.check(
        taken.network,
        options.mnemonic,
        taken.transaction,
        taken.terms,
      );
      if ("refusal" in checked) return { isValid: false, invalidReason: checked.refusal };
      return { isValid: true, payer: checked.payer };
    },
    async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
      const answer = (errorReason: string, transaction = ""): SettleResponse => ({
        success: false,
        errorReason,
        transaction,
        network: requirements.network,
      });
      const taken = take(payload, requirements);
      if ("refusal" in taken) return answer(taken.refusal);
      const row = await awaitedRow(taken);
      if (!row) return answer("payee_not_accepted");
      const signed = await recordedOrSigned(taken, row);
      if ("refusal" in signed) return answer(signed.refusal);
      const progress = await followX402Transaction(taken.scheme, taken.network, signed, row.id);
      // The web tier holds the row's lease while it waits here: a pending one stays its to hand back.
      await recordX402TransactionOutcome(options.database(), { ...row, transaction: signed.id }, progress, {
        network: taken.network,
        now: new Date(),
      });
      if (progress === "confirmed")
        return { success: true, transaction: signed.id, network: requirements.network, payer: signed.payer };
      if (progress === "failed") return answer("invalid_exact_svm_transaction_failed", signed.id);
      return answer(progress === "expired" ? "settlement_expired" : "settlement_pending", signed.id);
    },
  };
}
