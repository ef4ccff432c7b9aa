import { randomInt } from "node:crypto";
import type { PaymentRequired } from "@x402/core/types";
import { parseUnits } from "viem";
import { chainFamily } from "../chains/chain-families";
import { checkoutSessionX402Url, config, paylinkX402Url } from "../config";
import type { Db } from "../db/client";
import { ServiceError } from "../errors";
import type { Invoice } from "../generated/prisma/client";
import { metrics } from "../metrics/metrics";
import { formatPrice, Money } from "../money/decimal";
import { paymentReceiversAt } from "../payments/allocate-deposit-address";
import { priceInvoice } from "../payments/price-invoice";
import { serializeRecurring } from "../subscriptions/serialize-recurring";
import { x402FacilitatorClient } from "./facilitator-client";
import { facilitatorCosigns } from "./facilitator-fee-payers";
import { findX402Resource, type X402Resource, type X402ResourceRef } from "./find-x402-resource";
import { x402Discovery } from "./x402-bazaar";
import { pausedX402Networks, x402NetworkPaused } from "./x402-fee-payer-breaker";
import { checkX402GasBudget, coversSettlementGas, x402GasUnavailable, x402PriceBelowGas } from "./x402-gas";
import type { X402PaymentRequiredBody } from "./x402-objects";
import type { X402Quote } from "./x402-quote-token";
import { findX402Payable, type X402Payable, x402Payables, x402Requirements } from "./x402-requirements";

/** How long a quote may be paid: an agent pays at once; after this it asks again. */
export const x402QuoteLifetimeMs = 10 * 60 * 1000;

/**
 * Deposit addresses of x402 quotes are drawn at random from the upper half of the BIP32 index
 * range: the counter (lib/payments/allocate-deposit-address.ts) hands out indexes from 0, one per
 * invoice, and stays far below, so an unpaid quote allocates nothing and stores nothing.
 */
export const x402IndexRange = { from: 2 ** 30, to: 2 ** 31 } as const;

export const x402Unavailable = () =>
  new ServiceError(
    503,
    "api_error",
    "x402_unavailable",
    "x402 payments are not available on this service (no facilitator, no EIP-3009 token, or no secret key).",
  );

/**
 * A fresh, unused deposit address on a network, at a random index of the x402 range (or the
 * shared receiving wallet with a fresh reference, where invoices share it).
 */
async function randomDepositAddress(database: Db, networkId: string) {
  for (;;) {
    const derivationIndex = randomInt(x402IndexRange.from, x402IndexRange.to);
    const used = await database.invoice.findUnique({
      where: { network_derivationIndex: { network: networkId, derivationIndex } },
      select: { id: true },
    });
    if (!used) {
      const [receiver] = paymentReceiversAt(networkId, [derivationIndex]);
      return { derivationIndex, payTo: receiver.address, reference: receiver.reference };
    }
  }
}

function priceOf(resource: X402Resource) {
  const row = resource.kind === "paylink" ? resource.paylink : resource.session;
  return { amount: row.amount.toString(), currency: row.currency };
}

/**
 * Why an asset is not offered, and what a request answers when no asset is: its network paused
 * for fee-payer losses (503, x402-fee-payer-breaker.ts), gas that cannot be read now (503, it may
 * yet cover the price), then a price below its gas multiple (409).
 */
const unoffered = [
  ["paused", x402NetworkPaused],
  ["gas_unknown", x402GasUnavailable],
  ["below_gas", x402PriceBelowGas],
] as const;
type Unoffered = (typeof unoffered)[number][0];

/**
 * Whether an asset paid by transaction (Solana) can be co-signed: always by this process's own
 * facilitator; over HTTP only when that facilitator names our fee payer (facilitator-fee-payers.ts).
 */
async function cosignable({ network, x402 }: X402Payable): Promise<boolean> {
  if (!chainFamily(network).x402Transactions || !config().x402.facilitatorUrl) return true;
  return network.feePayer !== undefined && (await facilitatorCosigns(x402.network, network.feePayer));
}

/** One quote per x402 asset; an asset that cannot be priced now, or not co-signed, is left out. */
async function quoteEach(database: Db, resource: X402Resource, ref: X402ResourceRef, now: Date) {
  const expiresAt = new Date(now.getTime() + x402QuoteLifetimeMs).toISOString();
  const paused = await pausedX402Networks(database, now);
  const quotes = await Promise.all(
    x402Payables().map(async (asset): Promise<[X402Quote, X402Payable] | Unoffered | undefined> => {
      if (paused.has(asset.network.id)) return "paused";
      if (!(await cosignable(asset))) return undefined;
      const priced = await priceInvoice(priceOf(resource), asset.network, asset.token, now).catch((error) => {
        if (error instanceof ServiceError && error.code === "quote_unavailable") return undefined;
        throw error;
      });
      if (!priced) return undefined;
      // Gasless for the payer, not for us: a price below the gas multiple is not offered here.
      const covered = await coversSettlementGas(asset.network, priced.amountUsd, now).then(
        (enough): true | Unoffered => enough || "below_gas",
        (error): Unoffered => {
          if (error instanceof ServiceError && error.code === "x402_gas_unavailable") return "gas_unknown";
          throw error;
        },
      );
      if (covered !== true) return covered;
      const { derivationIndex, payTo, reference } = await randomDepositAddress(database, asset.network.id);
      const quote: X402Quote = {
        resource: ref,
        network: asset.network.id,
        token: asset.token.symbol,
        amount: parseUnits(priced.amountDue, asset.token.decimals).toString(),
        amountDue: priced.amountDue,
        rate: priced.rate,
        amountUsd: priced.amountUsd,
        quotedAt: priced.quotedAt.toISOString(),
        quoteSource: priced.quoteSource,
        quoteExpiresAt: priced.quoteExpiresAt?.toISOString() ?? null,
        derivationIndex,
        payTo,
        reference,
        invoiceId: null,
        expiresAt,
      };
      return [quote, asset];
    }),
  );
  const options = quotes.filter((entry) => Array.isArray(entry));
  const why = options.length === 0 && unoffered.find(([reason]) => quotes.includes(reason));
  // Paused networks: 503 until the first of them is offered again.
  const resumes = [...paused.values()].sort((a, b) => a.getTime() - b.getTime())[0];
  if (why) throw why[1](resumes, now);
  return options;
}

/**
 * A session already paying on an x402 asset is offered only that one, for what is still due, if
 * that covers the gas multiple as a fresh price would (409 `x402_price_below_gas`): a session paid
 * all but a cent is not settled at our gas.
 */
async function quoteInvoice(
  invoice: Invoice,
  ref: X402ResourceRef,
  now: Date,
): Promise<[X402Quote, X402Payable][]> {
  const asset = findX402Payable(invoice.network, invoice.token);
  if (!asset) return [];
  const due = new Money(invoice.amountDue.toString());
  const remaining = Money.max(due.minus(invoice.amountPaid.toString()), 0);
  const amountDue = remaining.toFixed(asset.token.decimals);
  // What is still due in USD, at the invoice's locked rate.
  const amountUsd = new Money(invoice.amountUsd.toString())
    .times(remaining)
    .div(due)
    .toFixed(2, Money.ROUND_HALF_UP);
  if (!(await coversSettlementGas(asset.network, amountUsd, now))) throw x402PriceBelowGas();
  const quote: X402Quote = {
    resource: ref,
    network: invoice.network,
    token: invoice.token,
    amount: parseUnits(amountDue, asset.token.decimals).toString(),
    amountDue,
    rate: invoice.rate.toString(),
    amountUsd,
    quotedAt: invoice.quotedAt.toISOString(),
    quoteSource: invoice.quoteSource,
    quoteExpiresAt: invoice.quoteExpiresAt?.toISOString() ?? null,
    derivationIndex: invoice.derivationIndex,
    payTo: invoice.depositAddress,
    reference: invoice.reference,
    invoiceId: invoice.id,
    expiresAt: new Date(
      Math.min(now.getTime() + x402QuoteLifetimeMs, invoice.deadline.getTime()),
    ).toISOString(),
  };
  return [[quote, asset]];
}

/** The body without the problem fields, which the route adds (lib/mpp/mpp-problems.ts). */
export type X402Offer = {
  paymentRequired: PaymentRequired;
  body: Omit<X402PaymentRequiredBody, "type" | "title" | "status" | "detail" | "challengeId">;
};

/** How many characters of the description the 402's headers carry; the body has all of it. */
const headerDescriptionLength = 200;

/**
 * The description as PAYMENT-REQUIRED (base64 JSON) and each MPP challenge (where mppx writes a
 * non-Latin-1 character as \uXXXX, six bytes) carry it: a paylink's 1,000 characters would make
 * headers of tens of KB, which proxies (nginx buffers 4–8 KB) answer 502. Cut on a code point.
 */
function shortForHeaders(text: string): string {
  const characters = Array.from(text);
  if (characters.length <= headerDescriptionLength) return text;
  return `${characters.slice(0, headerDescriptionLength - 1).join("")}…`;
}

/**
 * What an x402 request without a payment is answered: the resource's price as one `exact` option
 * per EIP-3009 token, each quote signed and paying a deposit address nobody else uses. Nothing is
 * stored. A session that already has an invoice is offered only the rest of that invoice (409
 * `payment_started_elsewhere` when its token cannot be paid over x402). A network whose gas the
 * price (or that rest) does not cover is left out (409 `x402_price_below_gas` when none is left),
 * and an organization past its daily gas budget is refused (429 `x402_gas_budget_exhausted`).
 */
export async function quoteX402Payment(
  database: Db,
  ref: X402ResourceRef,
  error: ServiceError | null = null,
  now = new Date(),
): Promise<X402Offer> {
  const resource = await findX402Resource(database, ref, now);
  if (!config().secretKey || !x402FacilitatorClient() || x402Payables().length === 0) throw x402Unavailable();
  const row = resource.kind === "paylink" ? resource.paylink : resource.session;
  await checkX402GasBudget(database, row.organizationId, now);
  const invoice = resource.kind === "checkout_session" ? resource.invoice : null;
  const options = invoice
    ? await quoteInvoice(invoice, ref, now)
    : await quoteEach(database, resource, ref, now);
  if (invoice && options.length === 0) {
    throw new ServiceError(
      409,
      "invalid_request_error",
      "payment_started_elsewhere",
      "Payment for this checkout already started with a token x402 cannot pay; pay it on the hosted page.",
    );
  }
  if (options.length === 0) {
    throw new ServiceError(
      503,
      "api_error",
      "quote_unavailable",
      `A ${priceOf(resource).currency} price cannot be converted to USDC right now; try again later.`,
    );
  }

  const merchantName =
    resource.kind === "paylink"
      ? resource.paylink.organization.name
      : (resource.session.organization.brandDisplayName ?? resource.session.organization.name);
  const description =
    resource.kind === "paylink"
      ? (resource.paylink.description ?? resource.paylink.name)
      : resource.session.description;
  const url = ref.kind === "paylink" ? paylinkX402Url(ref.id) : checkoutSessionX402Url(ref.id);
  const accepts = options.map(([quote, asset]) => x402Requirements(quote, asset));
  const discovery = x402Discovery(merchantName);
  metrics().x402PaymentRequired.inc();
  return {
    paymentRequired: {
      x402Version: 2,
      ...(error ? { error: error.message } : {}),
      resource: {
        url,
        description: shortForHeaders(
          `${merchantName}: ${description ?? formatPrice(row.amount, row.currency)}`,
        ),
        mimeType: "application/json",
        ...discovery.resource,
      },
      accepts,
      extensions: discovery.extensions,
    },
    body: {
      object: "x402_payment_required",
      x402Version: 2,
      resource: { ...ref, url },
      merchantName,
      description,
      amount: formatPrice(row.amount, row.currency),
      currency: row.currency,
      recurring: serializeRecurring(row),
      accepts: options.map(([quote, { network, x402 }]) => ({
        scheme: "exact" as const,
        network: x402.network,
        networkId: network.id,
        networkName: network.name,
        token: x402.symbol,
        asset: x402.asset,
        amount: quote.amountDue,
        payTo: quote.payTo,
        expiresAt: quote.expiresAt,
      })),
      error: error ? { type: error.type, code: error.code, message: error.message } : null,
    },
  };
}
