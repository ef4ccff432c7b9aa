"use client";

import { useTranslations } from "next-intl";
import type { WalletProblem } from "@/lib/payments/wallet-transfer";
import { ExplorerLink } from "./explorer-link";
import { shorten } from "./format";

/** What the browser wallet sent, with its explorer link: both wallet buttons (EIP-1193, Wallet Standard) show it. */
export function WalletSent(props: { transaction: string; explorerUrl: string | null }) {
  const t = useTranslations("checkout");
  return (
    <p
      role="status"
      data-testid="wallet-tx"
      className="flex flex-col gap-1 text-sm text-slate-700 dark:text-slate-200"
    >
      <span className="break-all">{t("wallet.sent", { hash: props.transaction })}</span>
      <ExplorerLink explorerUrl={props.explorerUrl} kind="tx" value={props.transaction}>
        {t("explorerTx", { hash: shorten(props.transaction) })}
      </ExplorerLink>
    </p>
  );
}

/** Why the browser wallet did not pay, in the buyer's words; the manual path stays below. */
export function WalletProblemAlert(props: { problem: WalletProblem; network: string; token: string }) {
  const t = useTranslations("checkout");
  const { problem } = props;
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      {problem === "rejected"
        ? t("wallet.rejected")
        : problem === "wrongChain"
          ? t("wallet.wrongChain", { network: props.network })
          : problem === "insufficient"
            ? t("wallet.insufficient", { token: props.token })
            : problem === "gone"
              ? t("wallet.gone")
              : t("wallet.failed")}
    </p>
  );
}
