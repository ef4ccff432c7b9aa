"use client";

import dynamic from "next/dynamic";
import { useState, useTransition } from "react";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import { type PaymentChoice, PaymentOptions } from "./payment-options";
import type { PanelIntl } from "./payment-panel";
import { readPayment } from "./read-payment";

// The first load is the token picker alone, its texts translated on the server. Everything after
// the choice (translations runtime, polling, QR code, wallets, receipt) is one chunk loaded then.
const PaymentPanel = dynamic(() => import("./payment-panel").then((module) => module.PaymentPanel));

export function CheckoutPayment(props: {
  checkoutSessionId: string;
  options: PaymentChoice[];
  texts: { payWith: string; unavailable: string; startFailed: string };
  intl: PanelIntl;
  paymentId: string | null;
  successUrl: string | null;
  merchantName: string;
  merchantOrderId: string | null;
}) {
  const [started, setStarted] = useState<PublicPayment | null>(null);
  const [starting, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const paymentId = started?.id ?? props.paymentId;

  if (paymentId) {
    return (
      <PaymentPanel
        intl={props.intl}
        paymentId={paymentId}
        initial={started}
        testWalletNetworks={props.options
          .filter((option) => option.testWallet)
          .map((option) => option.network)}
        successUrl={props.successUrl}
        merchantName={props.merchantName}
        merchantOrderId={props.merchantOrderId}
      />
    );
  }

  const start = (choice: { network: string; token: string }) => {
    // The panel's chunk downloads while the payment starts; its failure is the panel's to report.
    import("./payment-panel").catch(() => {});
    setError(null);
    startTransition(async () => {
      try {
        const response = await fetch("/api/public/payments", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ checkoutSessionId: props.checkoutSessionId, ...choice }),
        });
        const payment = await readPayment(response, props.texts.startFailed);
        // Inside the transition (after an await it must be entered again): the picker, disabled,
        // stays until the panel can render, so the box is never blank.
        startTransition(() => setStarted(payment));
      } catch (failure) {
        setError((failure as Error).message);
      }
    });
  };
  return (
    <PaymentOptions
      options={props.options}
      texts={props.texts}
      disabled={starting}
      error={error}
      onChoose={start}
    />
  );
}
