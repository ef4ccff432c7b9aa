import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The development mailbox shows sign-in links, so it opens only to whoever holds its key: the link
 * `npm start` prints (`/dev/mailbox?key=…`). A loopback connection proves nothing (a proxy, an SSH
 * tunnel or socat on this machine relays anyone's request). The key is traded once for a cookie
 * that lasts `maxAgeSeconds` and carries an expiry signed with the key, never the key itself, so
 * the key leaves the address bar and history, and a copied cookie ends on its own.
 */
export const devMailboxCookie = { name: "dev_mailbox", path: "/dev/mailbox", maxAgeSeconds: 12 * 3600 };

export type DevMailboxAccess =
  /** The cookie is good: show the mailbox. */
  | { kind: "open" }
  /** The right key: set this cookie and send the browser to the mailbox without the key. */
  | { kind: "trade"; cookie: string }
  | { kind: "closed" };

const signature = (key: string, expires: string) =>
  createHmac("sha256", key).update(`dev-mailbox:${expires}`).digest();

function same(given: Buffer, expected: Buffer) {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Who may read the mailbox: by the key in the query or the cookie a key was traded for. */
export function devMailboxAccess(
  key: string | undefined,
  presented: { queryKey: string | null; cookie: string | undefined },
  now: Date,
): DevMailboxAccess {
  if (!key) return { kind: "closed" };
  if (presented.queryKey !== null) {
    // Compared as HMACs of one length, so the comparison tells nothing of the key.
    const matches = same(signature(presented.queryKey, "key"), signature(key, "key"));
    if (!matches) return { kind: "closed" };
    const expires = String(Math.floor(now.getTime() / 1000) + devMailboxCookie.maxAgeSeconds);
    return { kind: "trade", cookie: `${expires}.${signature(key, expires).toString("base64url")}` };
  }
  const [expires, signed] = (presented.cookie ?? "").split(".");
  if (!/^\d{1,12}$/.test(expires ?? "") || Number(expires) * 1000 <= now.getTime()) return { kind: "closed" };
  return same(Buffer.from(signed ?? "", "base64url"), signature(key, expires))
    ? { kind: "open" }
    : { kind: "closed" };
}
