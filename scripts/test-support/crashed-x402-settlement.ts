// An x402 payment settled by a process of its own (scripts/test-support/x402-transaction-pass.ts)
// that is SIGKILLed at `crash`, for the crash tests in lib/x402/.
import { spawn } from "node:child_process";
import path from "node:path";
import type { PaymentPayload } from "@x402/core/types";
import { expect } from "vitest";
import { db } from "../../lib/db/client";
import { bundledEntry } from "./bundled-entry";

const root = path.resolve(import.meta.dirname, "../..");

/** Settles `payment` for the paylink in a process SIGKILLed at `crash`; its row, recorded and SETTLING. */
export async function crashedX402Settlement(options: {
  family: "evm" | "solana";
  crash: "before-send" | "after-send";
  payment: PaymentPayload;
  paylinkId: string;
}) {
  const child = spawn(
    process.execPath,
    [await bundledEntry("scripts/test-support/x402-transaction-pass.ts")],
    {
      cwd: root,
      stdio: "ignore",
      env: {
        ...process.env,
        LOG_LEVEL: "silent",
        X402_FAMILY: options.family,
        X402_CRASH: options.crash,
        X402_PAYMENT: JSON.stringify(options.payment),
        X402_RESOURCE: JSON.stringify({ kind: "paylink", id: options.paylinkId }),
      },
    },
  );
  const signal = await new Promise((resolve) =>
    child.once("exit", (_code, exitSignal) => resolve(exitSignal)),
  );
  expect(signal).toBe("SIGKILL");
  const row = await db().x402Settlement.findFirstOrThrow({
    where: { invoice: { checkoutSession: { paylinkId: options.paylinkId } } },
  });
  expect(row).toMatchObject({ status: "SETTLING", transaction: expect.any(String) });
  return row;
}
