import type { CSSProperties, ReactNode } from "react";
import { localeCookie, locales } from "@/lib/i18n/locales";
import { LocaleSwitcher } from "./locale-switcher";

/** The merchant's color replaces the theme's brand shades on this page (checked for contrast on save). */
function brandStyle(color: string | null): CSSProperties | undefined {
  if (!color) return undefined;
  return {
    "--color-brand-500": color,
    "--color-brand-600": color,
    "--color-brand-700": `color-mix(in srgb, ${color} 80%, black)`,
  } as CSSProperties;
}

/**
 * The frame of every page a buyer sees (checkout, refund claim): the merchant's brand band, logo
 * and name, the language picker, then the page's summary (in the header) and its box.
 */
export function HostedPage(props: {
  locale: string;
  languageLabel: string;
  /** The merchant's brand: any public object that carries it (a session, a refund claim). */
  brand: { merchantName: string; logoUrl: string | null; brandColor: string | null };
  summary: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      lang={props.locale}
      style={brandStyle(props.brand.brandColor)}
      className="min-h-screen bg-slate-50 text-slate-900 [color-scheme:light] dark:bg-slate-950 dark:text-slate-100 dark:[color-scheme:dark] print:bg-white"
    >
      {/* The merchant's color as a band across the top: the brand is visible before any button is. */}
      <div aria-hidden="true" data-testid="brand-bar" className="h-1.5 bg-brand-600 print:hidden" />
      <main className="mx-auto flex max-w-md flex-col gap-6 px-5 py-10">
        <header className="flex flex-col gap-3">
          <div className="flex items-center justify-between gap-3">
            <div className="flex items-center gap-3">
              {props.brand.logoUrl ? (
                // biome-ignore lint/performance/noImgElement: a small logo from our own origin; nothing to optimise.
                <img
                  src={props.brand.logoUrl}
                  alt=""
                  data-testid="merchant-logo"
                  className="size-10 rounded-md object-contain"
                />
              ) : null}
              <h1 className="text-sm font-medium text-slate-600 dark:text-slate-300">
                {props.brand.merchantName}
              </h1>
            </div>
            <LocaleSwitcher
              locale={props.locale}
              label={props.languageLabel}
              locales={locales}
              cookie={localeCookie}
            />
          </div>
          {props.summary}
        </header>
        {props.children}
      </main>
    </div>
  );
}

/** The white box under a hosted page's header. */
export const hostedBoxClass =
  "rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900 print:border-0 print:shadow-none";
