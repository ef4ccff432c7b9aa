"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import { readPayment } from "./read-payment";

/**
 * The hosted page's payment state once the buyer has chosen a network and token: following it
 * until confirmed, the devnet's test wallet, and the redirect to the success URL.
 */
export function usePayment(props: {
  paymentId: string;
  /** The answer that started the payment, shown until the first poll answers. */
  initial: PublicPayment | null;
  successUrl: string | null;
  messages: { loadFailed: string; testWalletFailed: string };
}) {
  const queryClient = useQueryClient();
  const queryKey = ["payment", props.paymentId];
  const payment = useQuery({
    queryKey,
    queryFn: async () =>
      readPayment(await fetch(`/api/public/payments/${props.paymentId}`), props.messages.loadFailed),
    initialData: props.initial ?? undefined,
    refetchInterval: (query) => (query.state.data?.status === "CONFIRMED" ? false : 3000),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
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
  const request = payment.data;

  useEffect(() => {
    if (request?.status === "CONFIRMED" && props.successUrl) {
      const timer = setTimeout(() => window.location.assign(props.successUrl as string), 1500);
      return () => clearTimeout(timer);
    }
  }, [request?.status, props.successUrl]);

  return { request, testWallet, refresh };
}
