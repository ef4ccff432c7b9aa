import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";

/** Languages of the hosted checkout page; the first is the fallback. */
export const locales = ["en", "de", "fr", "es", "pt", "ja"] as const;
export type Locale = (typeof locales)[number];

/** The cookie the page's language switcher sets; it wins over Accept-Language. */
export const localeCookie = "NEXT_LOCALE";

export function isLocale(value: string | undefined): value is Locale {
  return (locales as readonly string[]).includes(value ?? "");
}

/** The buyer's language: the switcher's choice, else the best match for Accept-Language. */
export function negotiateLocale(acceptLanguage: string | null, chosen?: string): Locale {
  if (isLocale(chosen)) return chosen;
  const requested = new Negotiator({ headers: { "accept-language": acceptLanguage ?? "" } })
    .languages()
    .filter((tag) => tag !== "*");
  try {
    return match(requested, locales, locales[0]) as Locale;
  } catch {
    // A malformed tag in the header: the default rather than a failed page.
    return locales[0];
  }
}
