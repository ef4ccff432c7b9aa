import { z } from "zod";

const check = z.enum(["ok", "failing"]);

/** The public body of GET /api/health; `details` only for the metrics token's holder. */
export const healthBody = z.object({
  status: z.enum(["ok", "degraded", "failing"]).meta({
    description: "`degraded`: every check passes but a chain watcher has lately not reached its RPC",
  }),
  checks: z.object({
    database: check,
    migrations: check,
    watchers: z.enum(["ok", "degraded", "failing"]),
    deliveries: check,
    jobs: check,
  }),
  details: z
    .object({
      pendingMigrations: z.array(z.string()),
      watchers: z.array(
        z.object({
          network: z.string(),
          headBlock: z.number().nullable(),
          scannedBlock: z.number().nullable(),
          lagBlocks: z.number().nullable(),
          secondsSinceCheck: z.number().nullable(),
          status: z.enum(["ok", "starting", "unreachable", "stalled"]),
        }),
      ),
      deliveries: z.object({
        due: z.number(),
        oldestDueSeconds: z.number(),
        inFlight: z.number(),
        byStatus: z.record(z.string(), z.number()),
      }),
      jobs: z.object({
        engine: z.enum(["in-process", "inngest"]),
        tasks: z.array(z.string()),
        stalledTasks: z.array(z.string()),
      }),
      settlement: z.object({
        sweeps: z.array(z.object({ network: z.string(), status: z.string(), count: z.number() })),
        gasWallets: z.array(
          z.object({
            network: z.string(),
            address: z.string(),
            balance: z.string().meta({ description: "In the network's native coin" }),
            symbol: z.string().meta({ description: "That coin (ETH, POL; SOL for a Solana fee payer)" }),
            low: z.boolean().meta({ description: "Below the sweeper's warning threshold" }),
            checkedAt: z.string(),
          }),
        ),
      }),
    })
    .optional(),
});
