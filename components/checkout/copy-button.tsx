"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

export function CopyButton({ value, label }: { value: string; label: string }) {
  const t = useTranslations("checkout");
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        await navigator.clipboard?.writeText(value).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
      className="shrink-0 rounded-md border border-slate-300 px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
      aria-label={label}
    >
      {copied ? t("copied") : t("copy")}
    </button>
  );
}
