import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { locales, negotiateLocale } from "./locales";

describe("negotiateLocale", () => {
  it.each<[string, string | null, string | undefined, string]>([
    ["no header", null, undefined, "en"],
    ["German", "de-DE,de;q=0.9,en;q=0.8", undefined, "de"],
    ["a region we lack falls to its language", "pt-BR", undefined, "pt"],
    ["q-values decide, not order", "fr;q=0.5,ja;q=0.9", undefined, "ja"],
    ["an unsupported language falls back to English", "zh-CN,ko", undefined, "en"],
    ["the switcher's cookie wins", "de", "es", "es"],
    ["an unknown cookie value is ignored", "de", "xx", "de"],
    ["a malformed header", "!!;q=abc,,", undefined, "en"],
    ["a wildcard", "*", undefined, "en"],
  ])("%s", (_case, header, cookie, locale) => {
    expect(negotiateLocale(header, cookie)).toBe(locale);
  });
});

describe("message catalogs", () => {
  const keys = (value: unknown, prefix = ""): string[] =>
    typeof value === "object" && value !== null
      ? Object.entries(value).flatMap(([key, inner]) => keys(inner, `${prefix}${key}.`))
      : [prefix.slice(0, -1)];
  const catalog = (locale: string) =>
    JSON.parse(readFileSync(path.join(import.meta.dirname, "messages", `${locale}.json`), "utf8"));

  it.each(locales.filter((locale) => locale !== "en"))("%s has exactly the English keys", (locale) => {
    expect(keys(catalog(locale)).sort()).toEqual(keys(catalog("en")).sort());
  });
});
