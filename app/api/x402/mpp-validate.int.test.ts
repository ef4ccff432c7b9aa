// `mppx validate`, MPP's own conformance check (its CLI, mppx/dist/bin.js), run against the x402
// routes and the OpenAPI document over real HTTP, offline: discovery (`x-payment-info`), the
// challenge of an unpaid request and the answer to a garbage credential. With no wallet it pays
// nothing; the payment itself is tested with mppx's client in mpp.int.test.ts.
process.env.SERVICE_SWEEPER = "in-process";

import { spawn } from "node:child_process";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { x402TestBed } from "@/scripts/test-support/x402-app";

const bed = x402TestBed();
const bin = path.resolve(import.meta.dirname, "../../../node_modules/mppx/dist/bin.js");

type Check = { label: string; severity: "pass" | "fail" | "warn" | "skip" | "suggested"; detail?: string };

it("passes mppx validate's discovery, challenge and error-handling checks", async () => {
  const { paylink } = await bed.app.paylink("2.00");
  // A home of its own: no mppx account or configuration of the machine's is read.
  const home = await mkdtemp(path.join(tmpdir(), "mppx-home-"));
  try {
    // Its JSON goes to a file: written to a pipe, the part past 64 KiB is lost when it exits.
    const output = path.join(home, "validate.json");
    const file = await open(output, "w");
    const exit = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [bin, "validate", bed.app.url, "--endpoint", `GET:/api/x402/paylinks/${paylink.id}`, "--output-json"],
        {
          env: { NODE_ENV: "test", PATH: process.env.PATH, HOME: home, NO_COLOR: "1" },
          stdio: ["ignore", file.fd, "inherit"],
        },
      );
      child.on("error", reject);
      child.on("exit", resolve);
    });
    await file.close();
    const result = JSON.parse(await readFile(output, "utf8"));
    const [endpoint] = result.endpoints as Record<"challenge" | "errorHandling" | "payment", Check[]>[];
    const checks: Check[] = [...result.discovery.checks, ...endpoint.challenge, ...endpoint.errorHandling];
    const passed = (label: string) => checks.find((check) => check.label === label)?.severity;
    expect(checks.filter((check) => check.severity === "fail")).toEqual([]);
    expect(exit).toBe(0);
    expect(result.discovery).toMatchObject({ found: true, valid: true });
    for (const label of [
      "Document found and parseable",
      "Valid OpenAPI structure",
      "Returns 402 without credentials",
      "x402 payment challenge",
      "WWW-Authenticate header present",
      "Challenge parseable",
      "Challenge has id",
      "Challenge expires in the future",
      "Valid recipient address",
      "Valid currency address",
      "Amount is valid integer string",
      "Has chainId",
      "Malformed credential returns 402",
      "Error response includes fresh challenge",
    ])
      expect(passed(label), label).toBe("pass");
    // Both paid operations say so in the document, priced by the 402 (null: each paylink's own).
    const paths = result.discovery.doc.paths;
    for (const operation of [
      paths["/api/x402/paylinks/{id}"].get,
      paths["/api/x402/checkout-sessions/{id}"].get,
    ])
      expect(operation["x-payment-info"]).toMatchObject({ method: "evm", intent: "charge", amount: null });
    // With no wallet it pays nothing.
    expect(endpoint.payment.map((check) => check.severity)).toEqual(["skip"]);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}, 120_000);
