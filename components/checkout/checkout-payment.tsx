"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useState } from "react";
import type { InvoiceStatus } from "@/lib/payments/invoice-state";
import { CopyButton } from "./copy-button";

/** testWallet: the server says this network is the local devnet, where the test wallet can pay. */
type Option = { network: string; networkName: string; token: string; testWallet: boolean };
type PaymentRequest = {
  id: string;
  status: InvoiceStatus;
  network: string;
  chainId: number | null;
  token: string;
  tokenAddress: string | null;
  depositAddress: string;
  amountDue: string;
  amountPaid: string;
  remaining: string;
  overpaid: string;
  requiredConfirmations: number | null;
  deadline: string;
  quoteExpiresAt: string | null;
  payments: { txHash: string; amount: string; confirmations: number; status: string }[];
};

/** EIP-681 payment URI for wallets: an ERC-20 transfer, or a native value transfer. */
function paymentUri(request: PaymentRequest): string {
  const [whole, fraction = ""] = request.remaining.split(".");
  const decimals = fraction.length;
  const units = BigInt(whole + fraction.padEnd(decimals, "0")).toString();
  const chain = request.chainId ? `@${request.chainId}` : "";
  return request.tokenAddress
    ? `ethereum:${request.tokenAddress}${chain}/transfer?address=${request.depositAddress}&uint256=${units}`
    : `ethereum:${request.depositAddress}${chain}?value=${units}`;
}

function Countdown({ deadline }: { deadline: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Date.parse(deadline) - now);
  const minutes = Math.floor(left / 60_000);
  const seconds = Math.floor((left % 60_000) / 1000);
  return (
    <span className="font-mono tabular-nums" aria-live="off">
      {minutes}:{String(seconds).padStart(2, "0")}
    </span>
  );
}

const statusText: Record<PaymentRequest["status"], string> = {
  AWAITING_PAYMENT: "Waiting for your payment",
  PARTIALLY_PAID: "Partial payment received — send the rest",
  CONFIRMING: "Payment seen — waiting for confirmations",
  CONFIRMED: "Payment confirmed",
  OVERDUE: "This payment window has closed",
};

export function CheckoutPayment(props: {
  checkoutSessionId: string;
  options: Option[];
  paymentId: string | null;
  successUrl: string | null;
}) {
  const [paymentId, setPaymentId] = useState(props.paymentId);
  const start = useMutation({
    mutationFn: async (option: Option) => {
      const response = await fetch("/api/public/payments", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          checkoutSessionId: props.checkoutSessionId,
          network: option.network,
          token: option.token,
        }),
      });
      const body = await response.json();
      if (!response.ok) throw new Error(body.error?.message ?? "Could not start the payment.");
      return body as PaymentRequest;
    },
    onSuccess: (request) => setPaymentId(request.id),
  });
  const payment = useQuery({
    queryKey: ["payment", paymentId],
    enabled: paymentId !== null,
    queryFn: async () => (await (await fetch(`/api/public/payments/${paymentId}`)).json()) as PaymentRequest,
    refetchInterval: (query) => (query.state.data?.status === "CONFIRMED" ? false : 3000),
  });
  const request = payment.data ?? start.data;
  const queryClient = useQueryClient();
  const testWallet = useMutation({
    mutationFn: async (id: string) => {
      const response = await fetch(`/api/public/payments/${id}/devnet-pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      const body = await response.json();
      if (!response.ok) throw new Error(body.error?.message ?? "The test wallet could not pay.");
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["payment", paymentId] }),
  });

  useEffect(() => {
    if (request?.status === "CONFIRMED" && props.successUrl) {
      const timer = setTimeout(() => window.location.assign(props.successUrl as string), 1500);
      return () => clearTimeout(timer);
    }
  }, [request?.status, props.successUrl]);

  if (!request) {
    if (props.options.length === 0) {
      return <p className="text-sm text-slate-600">Payments are not available on this service right now.</p>;
    }
    return (
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Pay with</legend>
        {props.options.map((option) => (
          <button
            key={`${option.network}:${option.token}`}
            type="button"
            disabled={start.isPending}
            onClick={() => start.mutate(option)}
            className="flex items-center justify-between rounded-lg border border-slate-300 bg-white px-4 py-3 text-left hover:border-brand-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-50"
          >
            <span className="font-medium">{option.token}</span>
            <span className="text-sm text-slate-500">on {option.networkName}</span>
          </button>
        ))}
        {start.error ? (
          <p role="alert" className="text-sm text-red-700">
            {start.error.message}
          </p>
        ) : null}
      </fieldset>
    );
  }

  const payable = request.status === "AWAITING_PAYMENT" || request.status === "PARTIALLY_PAID";
  const onDevnet = props.options.some((option) => option.network === request.network && option.testWallet);
  const confirmations = request.payments.reduce(
    (least, item) => Math.min(least, item.confirmations),
    Number.POSITIVE_INFINITY,
  );
  return (
    <section aria-labelledby="payment-status" className="flex flex-col gap-5">
      <p
        id="payment-status"
        role="status"
        className="rounded-md bg-slate-100 px-3 py-2 text-sm font-medium text-slate-800"
      >
        {statusText[request.status]}
        {request.status === "CONFIRMING" && request.requiredConfirmations && Number.isFinite(confirmations)
          ? ` (${Math.min(confirmations, request.requiredConfirmations)} of ${request.requiredConfirmations})`
          : ""}
      </p>
      {/* Any non-zero digit: amounts are compared as text, never as floats. */}
      {/[1-9]/.test(request.overpaid) ? (
        <p data-testid="overpaid" className="text-sm text-slate-700">
          You sent {request.overpaid} {request.token} more than due; the merchant has been told.
        </p>
      ) : null}
      {payable ? (
        <>
          <div className="flex flex-col items-center gap-2">
            <QRCodeSVG value={paymentUri(request)} size={176} aria-label="Payment QR code" />
            <p className="text-xs text-slate-500">
              Time left <Countdown deadline={request.deadline} />
            </p>
            {request.quoteExpiresAt ? (
              <p data-testid="quote-window" className="text-xs text-slate-500">
                Price held for <Countdown deadline={request.quoteExpiresAt} />
              </p>
            ) : null}
          </div>
          <dl className="flex flex-col gap-3 text-sm">
            <div>
              <dt className="text-slate-500">Send exactly</dt>
              <dd className="flex items-center justify-between gap-2 font-mono text-base font-semibold">
                <span data-testid="amount-to-send">
                  {request.remaining} {request.token}
                </span>
                <CopyButton value={request.remaining} label="amount" />
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">To this {request.network} address</dt>
              <dd className="flex items-center justify-between gap-2">
                <span data-testid="deposit-address" className="break-all font-mono text-xs">
                  {request.depositAddress}
                </span>
                <CopyButton value={request.depositAddress} label="address" />
              </dd>
            </div>
            {request.status === "PARTIALLY_PAID" ? (
              <p className="text-slate-600">
                Received {request.amountPaid} of {request.amountDue} {request.token}.
              </p>
            ) : null}
          </dl>
          {onDevnet ? (
            <div className="flex flex-col gap-2 border-t border-slate-200 pt-4">
              <button
                type="button"
                disabled={testWallet.isPending}
                onClick={() => testWallet.mutate(request.id)}
                aria-describedby="test-wallet-note"
                className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-50"
              >
                {testWallet.isPending ? "Paying with test wallet…" : "Pay with test wallet"}
              </button>
              <p id="test-wallet-note" className="text-xs text-slate-500">
                Local devnet only: sends {request.remaining} {request.token} from the devnet's funded test
                account.
              </p>
              {testWallet.error ? (
                <p role="alert" className="text-sm text-red-700">
                  {testWallet.error.message}
                </p>
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
