import pino from "pino";

// JSON logs. Credentials must never reach them: known secret fields are censored by path, and
// anything shaped like one of our credentials is masked wherever it appears in a string.
// Prefixes: API keys, agent credentials, webhook secrets, OAuth access/refresh tokens, codes and client secrets,
// agent setup, check-in, signup check-in and signup confirmation tokens.
const credentialPattern =
  /\b(sk_live|sk_test|sk_agent|whsec|cc_at|cc_rt|cc_ac|cc_cs|cc_ast|cc_act|cc_rct|cc_arc)_[A-Za-z0-9+/=_-]{6,}/g;

// A refund's claim link carries its capability in the path (app/refund/[token]).
const claimPathPattern = /\/refund\/[A-Za-z0-9_-]{16,}/g;

export function maskCredentials(text: string): string {
  return text
    .replace(credentialPattern, (_match, kind: string) => `${kind}_[redacted]`)
    .replace(claimPathPattern, "/refund/[redacted]");
}

/**
 * A request target (path and query, or a whole URL) as logs and spans keep it: credentials and a
 * claim link's token masked, and every query value replaced, since any parameter may carry a
 * token of a kind we do not know (a name alone counts as a value).
 */
export function maskTarget(target: string): string {
  const queryAt = target.indexOf("?");
  if (queryAt < 0) return maskCredentials(target);
  const query = target
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const equalsAt = pair.indexOf("=");
      if (pair === "") return pair;
      return equalsAt < 0 ? "[redacted]" : `${maskCredentials(pair.slice(0, equalsAt))}=[redacted]`;
    })
    .join("&");
  return `${maskCredentials(target.slice(0, queryAt))}?${query}`;
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return maskCredentials(value);
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: maskCredentials(value.message),
      stack: value.stack && maskCredentials(value.stack),
    };
  }
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, depth + 1)]));
}

const secretFields = ["authorization", "apiKey", "token", "secret", "password", "signingSecret", "body"];

// process.stdout (rather than pino's direct fd writes) keeps log output observable in tests.
export function createLogger(
  destination: pino.DestinationStream = process.stdout,
  level = process.env.LOG_LEVEL,
) {
  return pino(
    {
      level: level || "info",
      base: { service: "crypto-checkout" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [...secretFields, ...secretFields.map((field) => `*.${field}`), 'headers["authorization"]'],
        censor: "[redacted]",
      },
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        // The one place arguments are scrubbed: the merged object, the message and any format
        // arguments all pass here, before redaction and serialisation.
        logMethod(args, method) {
          method.apply(this, args.map((arg) => scrub(arg)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

export const log = createLogger();
