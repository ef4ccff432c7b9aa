"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";

async function readBody(response: Response, fallback: string): Promise<PublicPayment> {
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message ?? fallback);
  return body as PublicPayment;
}

/**
 * The hosted page's payment state: starting a payment on a network and token, following it until
 * confirmed, the devnet's test wallet, and the redirect to the success URL.
 */
export function usePayment(props: {
  checkoutSessionId: string;
  paymentId: string | null;
  successUrl: string | null;
  messages: { startFailed: string; testWalletFailed: string };
}) {
  const [paymentId, setPaymentId] = useState(props.paymentId);
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: async (choice: { network: string; token: string }) =>
      readBody(
        await fetch("/api/public/payments", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ checkoutSessionId: props.checkoutSessionId, ...choice }),
        }),
        props.messages.startFailed,
      ),
    onSuccess: (request) => setPaymentId(request.id),
  });
  const payment = useQuery({
    queryKey: ["payment", paymentId],
    enabled: paymentId !== null,
    queryFn: async () =>
      readBody(await fetch(`/api/public/payments/${paymentId}`), props.messages.startFailed),
    refetchInterval: (query) => (query.state.data?.status === "CONFIRMED" ? false : 3000),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["payment", paymentId] });
  const testWallet = useMutation({
    mutationFn: async (id: string) => {
      const response = await fetch(`/api/public/payments/${id}/devnet-pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!response.ok)
        throw new Error((await response.json()).error?.message ?? props.messages.testWalletFailed);
    },
    onSuccess: refresh,
  });
  const request = payment.data ?? start.data;

  useEffect(() => {
    if (request?.status === "CONFIRMED" && props.successUrl) {
      const timer = setTimeout(() => window.location.assign(props.successUrl as string), 1500);
      return () => clearTimeout(timer);
    }
  }, [request?.status, props.successUrl]);

  return { request, start, testWallet, refresh };
}
