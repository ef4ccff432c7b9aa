"use client";

import { useRouter } from "next/navigation";

/** Each language named in itself, so a buyer finds theirs whatever the page shows now. */
const languageNames: Record<string, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  pt: "Português",
  ja: "日本語",
};

/** The page's language picker; its label comes translated from the server (no i18n runtime here). */
export function LocaleSwitcher(props: {
  locale: string;
  label: string;
  locales: readonly string[];
  cookie: string;
}) {
  const router = useRouter();
  return (
    <label className="flex items-center gap-2 text-xs text-slate-600 print:hidden dark:text-slate-300">
      {props.label}
      <select
        value={props.locale}
        onChange={(event) => {
          // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from some browsers buyers use.
          document.cookie = `${props.cookie}=${event.target.value}; path=/; max-age=31536000; samesite=lax`;
          router.refresh();
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
      >
        {props.locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageNames[code] ?? code}
          </option>
        ))}
      </select>
    </label>
  );
}
