"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import type { EIP1193Provider } from "viem";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import type { WalletProblem } from "@/lib/payments/wallet-transfer";
import { WalletProblemAlert, WalletSent } from "./wallet-outcome";
import type { WalletStep } from "./wallet-pay";

/** An injected wallet as EIP-6963 announces it (or the legacy window.ethereum). */
type InjectedWallet = { uuid: string; name: string; icon: string | null; provider: EIP1193Provider };

type AnnounceEvent = CustomEvent<{
  info?: { uuid?: string; name?: string; icon?: string };
  provider?: EIP1193Provider;
}>;

/** Wallets in this browser: EIP-6963 announcements, else window.ethereum once the page has loaded. */
function useInjectedWallets(): InjectedWallet[] {
  const [wallets, setWallets] = useState<InjectedWallet[]>([]);
  useEffect(() => {
    const announced = new Map<string, InjectedWallet>();
    const onAnnounce = (event: Event) => {
      const { info, provider } = (event as AnnounceEvent).detail ?? {};
      if (!info?.uuid || !info.name || typeof provider?.request !== "function") return;
      // Only image data: icons; a wallet-supplied URL would load from elsewhere.
      const icon = info.icon?.startsWith("data:image/") ? info.icon : null;
      announced.set(info.uuid, { uuid: info.uuid, name: info.name, icon, provider });
      setWallets([...announced.values()]);
    };
    window.addEventListener("eip6963:announceProvider", onAnnounce);
    window.dispatchEvent(new Event("eip6963:requestProvider"));
    const legacy = (window as { ethereum?: EIP1193Provider }).ethereum;
    if (announced.size === 0 && typeof legacy?.request === "function")
      setWallets([{ uuid: "window.ethereum", name: "Browser wallet", icon: null, provider: legacy }]);
    return () => window.removeEventListener("eip6963:announceProvider", onAnnounce);
  }, []);
  return wallets;
}

/** One-click payment from a wallet in the browser; any failure leaves the manual path below. */
export function BrowserWallet(props: { request: PublicPayment; onSent: () => void }) {
  const t = useTranslations("checkout");
  const wallets = useInjectedWallets();
  const [step, setStep] = useState<WalletStep | null>(null);
  const pay = useMutation({
    mutationFn: async (wallet: InjectedWallet) => {
      const { payWithWallet } = await import("./wallet-pay");
      return payWithWallet(wallet.provider, props.request, setStep);
    },
    onSettled: () => setStep(null),
    onSuccess: props.onSent,
  });
  if (wallets.length === 0 || props.request.chainId === null) return null;
  const network = props.request.networkName;
  // payWithWallet throws a WalletStepError, whose message is the classified problem.
  const problem = pay.error ? (pay.error.message as WalletProblem) : null;
  return (
    <div className="flex flex-col gap-2 border-b border-slate-200 pb-4 dark:border-slate-700">
      {wallets.map((wallet) => (
        <button
          key={wallet.uuid}
          type="button"
          disabled={pay.isPending}
          onClick={() => pay.mutate(wallet)}
          className="flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-50 dark:focus-visible:ring-offset-slate-900"
        >
          {wallet.icon ? (
            // biome-ignore lint/performance/noImgElement: the wallet's own data: icon, which next/image cannot take.
            <img src={wallet.icon} alt="" className="size-5" />
          ) : null}
          {t("wallet.pay", { wallet: wallet.name })}
        </button>
      ))}
      {step ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
          {step === "connecting"
            ? t("wallet.connecting")
            : step === "switching"
              ? t("wallet.switching", { network })
              : t("wallet.confirm")}
        </p>
      ) : null}
      {pay.data ? <WalletSent transaction={pay.data} explorerUrl={props.request.explorerUrl} /> : null}
      {problem ? (
        <WalletProblemAlert problem={problem} network={network} token={props.request.token} />
      ) : null}
      <p className="text-center text-xs text-slate-600 dark:text-slate-300">{t("wallet.manual")}</p>
    </div>
  );
}
