"use client";

import { base58, base64 } from "@scure/base";
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
} from "@solana/wallet-standard-features";
import { useMutation } from "@tanstack/react-query";
import { getWallets } from "@wallet-standard/app";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import type { WalletProblem } from "@/lib/payments/wallet-transfer";
import { WalletProblemAlert, WalletSent } from "./wallet-outcome";

/** Wallet Standard's connect feature, as every wallet implements it. */
type ConnectFeature = { "standard:connect": { connect(): Promise<{ accounts: readonly WalletAccount[] }> } };
type PayingWallet = Wallet & { features: SolanaSignAndSendTransactionFeature & ConnectFeature };
type Step = "connecting" | "confirm";

/** Wallets in this browser that can sign and send a transaction on `chain` (Wallet Standard). */
function useStandardWallets(chain: string | null): PayingWallet[] {
  const [wallets, setWallets] = useState<PayingWallet[]>([]);
  useEffect(() => {
    if (!chain) return;
    const registry = getWallets();
    const refresh = () =>
      setWallets(
        registry
          .get()
          .filter(
            (wallet): wallet is PayingWallet =>
              SolanaSignAndSendTransaction in wallet.features &&
              "standard:connect" in wallet.features &&
              wallet.chains.includes(chain as `${string}:${string}`),
          ),
      );
    refresh();
    const off = [registry.on("register", refresh), registry.on("unregister", refresh)];
    return () => {
      for (const stop of off) stop();
    };
  }, [chain]);
  return wallets;
}

/** A wallet's refusal or failure, as the buyer is told it. */
function problemOf(error: unknown): WalletProblem {
  const { code, message } = (error ?? {}) as { code?: number; message?: string };
  if (code === 4001 || /reject|denied|declined|cancel/i.test(message ?? "")) return "rejected";
  if (/insufficient/i.test(message ?? "")) return "insufficient";
  return "failed";
}

/**
 * One-click payment from a Solana wallet in the browser (Phantom, Solflare, Backpack: any Wallet
 * Standard wallet on the payment's chain): the service builds the transfer with the invoice's
 * reference, the wallet signs and sends it. Any failure leaves the QR code and link below.
 */
export function SolanaWallet(props: { request: PublicPayment; onSent: () => void }) {
  const t = useTranslations("checkout");
  const { walletChain } = props.request;
  const wallets = useStandardWallets(walletChain);
  const [step, setStep] = useState<Step | null>(null);
  const pay = useMutation({
    mutationFn: async (wallet: PayingWallet) => {
      setStep("connecting");
      const { accounts } = await wallet.features["standard:connect"].connect();
      const account = accounts.find((candidate) =>
        candidate.chains.includes(walletChain as `${string}:${string}`),
      );
      if (!account) throw new Error("failed");
      const response = await fetch(`/api/public/payments/${props.request.id}/wallet-transaction`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: account.address }),
      });
      if (!response.ok) throw new Error("failed");
      const { transaction } = (await response.json()) as { transaction: string };
      setStep("confirm");
      const [sent] = await wallet.features[SolanaSignAndSendTransaction].signAndSendTransaction({
        account,
        chain: walletChain as `${string}:${string}`,
        transaction: base64.decode(transaction),
      });
      return base58.encode(sent.signature);
    },
    onSettled: () => setStep(null),
    onSuccess: props.onSent,
  });
  if (!walletChain || wallets.length === 0) return null;
  const problem = pay.error ? problemOf(pay.error) : null;
  return (
    <div className="flex flex-col gap-2 border-b border-slate-200 pb-4 dark:border-slate-700">
      {wallets.map((wallet) => (
        <button
          key={wallet.name}
          type="button"
          disabled={pay.isPending}
          onClick={() => pay.mutate(wallet)}
          className="flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-50 dark:focus-visible:ring-offset-slate-900"
        >
          {wallet.icon.startsWith("data:image/") ? (
            // biome-ignore lint/performance/noImgElement: the wallet's own data: icon, which next/image cannot take.
            <img src={wallet.icon} alt="" className="size-5" />
          ) : null}
          {t("wallet.pay", { wallet: wallet.name })}
        </button>
      ))}
      {step ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
          {step === "connecting" ? t("wallet.connecting") : t("wallet.confirm")}
        </p>
      ) : null}
      {pay.data ? <WalletSent transaction={pay.data} explorerUrl={props.request.explorerUrl} /> : null}
      {problem ? (
        <WalletProblemAlert
          problem={problem}
          network={props.request.networkName}
          token={props.request.token}
        />
      ) : null}
      <p className="text-center text-xs text-slate-600 dark:text-slate-300">{t("wallet.manual")}</p>
    </div>
  );
}
