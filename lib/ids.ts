import { randomFillSync } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// The largest multiple of 62 that fits in a byte; bytes above it are dropped so every character
// is equally likely.
const unbiasedLimit = 248;

// The CSPRNG's bytes are drawn a block at a time, each byte used once and in order, as Node.js
// does for randomUUID: a call to it costs about 5 µs whatever its size, and every request makes
// ids (its request id, the rows it creates).
const block = Buffer.alloc(4096);
let next = block.length;

function randomByte(): number {
  if (next === block.length) {
    randomFillSync(block);
    next = 0;
  }
  const byte = block[next];
  next += 1;
  return byte;
}

/** `length` characters of base62 from the CSPRNG. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < unbiasedLimit) out += alphabet[byte % 62];
  }
  return out;
}

export const idPrefixes = {
  organization: "org",
  user: "usr",
  membership: "mem",
  apiKey: "key",
  checkoutSession: "ycs",
  settlementWallet: "sw",
  invoice: "inv",
  subscription: "sub",
  payment: "pay",
  event: "evt",
  testEvent: "evt_test",
  webhookEndpoint: "we",
  webhookDelivery: "whd",
  webhookAttempt: "wha",
  authSession: "ses",
  devEmail: "eml",
  invitation: "ivt",
  agentCredential: "agc",
  agentSetup: "ags",
  agentRegistration: "agr",
  oauthClient: "ocl",
  oauthGrant: "ogr",
  oauthToken: "otk",
  sweep: "swp",
  signedTransaction: "swt",
  refund: "rfd",
  organizationLogo: "logo",
  settlementChange: "stc",
  outboundEmail: "obm",
  x402Settlement: "x402",
} as const;

export type IdKind = keyof typeof idPrefixes;

/** A public id: the kind's prefix, an underscore and 24 base62 characters (~143 bits). */
export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${randomBase62(24)}`;
}

export function hasIdPrefix(kind: IdKind, value: string): boolean {
  return new RegExp(`^${idPrefixes[kind]}_[0-9A-Za-z]{24}$`).test(value);
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Paylink ids are UUIDs; anything else cannot name one. */
export function isUuid(value: string): boolean {
  return uuidShape.test(value);
}
