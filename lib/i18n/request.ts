import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { localeCookie, negotiateLocale } from "./locales";

// next-intl reads this per request (next.config.ts points its plugin here). Only the hosted
// checkout page is translated; it alone puts the messages in a client provider.
export default getRequestConfig(async () => {
  const locale = negotiateLocale(
    (await headers()).get("accept-language"),
    (await cookies()).get(localeCookie)?.value,
  );
  return { locale, messages: (await import(`./messages/${locale}.json`)).default };
});
