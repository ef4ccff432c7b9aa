// Whether an error means the database cannot be reached or used right now (down, restarting,
// out of connections), as opposed to a bad query or a bug: the first is answered 503 with
// Retry-After and goes away by itself; the pool replaces its connections once the server is back.
// Errors arrive in three shapes: Prisma's (a P1xxx code, P2024, or a driver adapter error under
// `meta.driverAdapterError`), the adapter's own DriverAdapterError (`cause.kind`), and pg's, from
// the raw queries on the pool (a socket code, a SQLSTATE, or a bare message).

// Prisma: can't reach (P1001), timed out (P1002, P1008), server closed the connection (P1017),
// too many connections (P1037), no pool connection in time (P2024).
const prismaCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P1037", "P2024"]);

// @prisma/adapter-pg's error kinds for a connection that could not be made or was lost.
const adapterKinds = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);

const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);

// SQLSTATE: connection exceptions (class 08), insufficient resources (class 53), and the server
// shutting down or starting up (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now).
const sqlStates = /^(08...|53...|57P0[123])$/;

// pg's own errors carry no code; nor does Prisma's when every pool connection stayed busy for
// longer than a transaction may wait.
const messages = [
  "Transaction API error: Unable to start a transaction in the given time",
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== "object" || error === null) return false;
  const { code, kind, message, meta, cause, errorCode } = error as Record<string, unknown>;
  if (typeof code === "string" && (prismaCodes.has(code) || socketCodes.has(code) || sqlStates.test(code)))
    return true;
  if (typeof errorCode === "string" && prismaCodes.has(errorCode)) return true;
  if (typeof kind === "string" && adapterKinds.has(kind)) return true;
  if (typeof message === "string" && messages.some((text) => message.startsWith(text))) return true;
  const adapterError = (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError;
  if (adapterError && isDatabaseUnavailable(adapterError, depth + 1)) return true;
  if (
    error instanceof AggregateError &&
    error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))
  )
    return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}
