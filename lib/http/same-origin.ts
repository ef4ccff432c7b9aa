import { config } from "../config";

/**
 * Whether a browser's POST comes from a page of this app. Browsers always send Origin on POST;
 * a missing or foreign one means another site (or no browser) is asking.
 */
export function isSameOrigin(headers: Headers): boolean {
  return headers.get("origin") === new URL(config().baseUrl).origin;
}

/** A path inside this app to return to after sign-in, or null for anything that could leave it. */
export function localReturnPath(value: string | undefined): string | null {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  return value;
}
