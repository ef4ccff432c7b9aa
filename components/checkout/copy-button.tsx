"use client";

import { useState } from "react";

/**
 * Copies `value` to the clipboard. `label` is the button's accessible name; the visible text is
 * given by the caller (the hosted page passes its translations; the dashboard is in English).
 */
export function CopyButton({
  value,
  label,
  copyText = "Copy",
  copiedText = "Copied",
}: {
  value: string;
  label: string;
  copyText?: string;
  copiedText?: string;
}) {
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
      {copied ? copiedText : copyText}
    </button>
  );
}
