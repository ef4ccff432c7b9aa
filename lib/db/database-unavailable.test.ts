import { describe, expect, it } from "vitest";
import { Prisma } from "../generated/prisma/client";
import { isDatabaseUnavailable } from "./database-unavailable";

const prisma = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("failed", { code, clientVersion: "7", meta });
const adapter = (cause: Record<string, unknown>) => ({ name: "DriverAdapterError", cause });
const socket = (code: string) =>
  Object.assign(new Error(`connect ${code}`), { code, syscall: "connect", errno: -1 });
const postgres = (code: string) => Object.assign(new Error("server said no"), { code, severity: "FATAL" });

// Each shape as the running stack produced it with PostgreSQL stopped, restarted or saturated.
const cases: [string, unknown, boolean][] = [
  ["Prisma: can't reach the server", prisma("P1001"), true],
  ["Prisma: server closed the connection", prisma("P1017"), true],
  ["Prisma: no pool connection in time", prisma("P2024"), true],
  [
    "Prisma raw query: server not reachable",
    prisma("P2010", { driverAdapterError: adapter({ kind: "DatabaseNotReachable", host: "127.0.0.1" }) }),
    true,
  ],
  [
    "Prisma raw query: admin shutdown",
    prisma("P2010", {
      driverAdapterError: adapter({ kind: "postgres", code: "57P01", originalCode: "57P01" }),
    }),
    true,
  ],
  ["adapter: connection closed", adapter({ kind: "ConnectionClosed" }), true],
  ["adapter: too many connections", adapter({ kind: "TooManyConnections" }), true],
  ["adapter: starting up", adapter({ kind: "postgres", code: "57P03" }), true],
  ["pg: connection refused", socket("ECONNREFUSED"), true],
  ["pg: both loopback addresses refused", new AggregateError([socket("ECONNREFUSED")], ""), true],
  ["pg: connection reset", socket("ECONNRESET"), true],
  ["pg: admin shutdown", postgres("57P01"), true],
  ["pg: connection failure", postgres("08006"), true],
  ["pg: too many clients", postgres("53300"), true],
  ["pg: terminated", new Error("Connection terminated unexpectedly"), true],
  ["pg: pool wait", new Error("timeout exceeded when trying to connect"), true],
  ["pg: broken client", new Error("Client has encountered a connection error and is not queryable"), true],
  [
    "Prisma: no transaction in time",
    new Error("Transaction API error: Unable to start a transaction in the given time."),
    true,
  ],
  ["wrapped in a cause", new Error("outer", { cause: socket("ECONNREFUSED") }), true],
  ["Prisma: unique violation", prisma("P2002"), false],
  ["Prisma: record missing", prisma("P2025"), false],
  [
    "Prisma raw query: bad text",
    prisma("P2010", { driverAdapterError: adapter({ kind: "postgres", code: "22021" }) }),
    false,
  ],
  ["pg: syntax error", postgres("42601"), false],
  ["pg: serialization failure", postgres("40001"), false],
  ["a plain bug", new TypeError("x is undefined"), false],
  ["not an error", "ECONNREFUSED", false],
  ["nothing", undefined, false],
];

describe("isDatabaseUnavailable", () => {
  it.each(cases)("%s", (_name, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
