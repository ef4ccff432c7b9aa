/**
 * Bytes from outside (a receiver's answer) as text PostgreSQL can store: invalid UTF-8 becomes
 * U+FFFD, and NUL, which a text column refuses (error 22021), becomes the visible U+2400 "␀".
 */
export function storableText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes).replaceAll("\0", "\u2400");
}
