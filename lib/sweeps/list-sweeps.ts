import { listSweeps as listSweepsContract } from "crypto-checkout-agent/contracts";
import { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { pagingQuery } from "../validation/fields";
import { refineContractInput } from "../validation/refine-contract-input";
import { sweepStatuses } from "./sweep-state";

export const sweepListQuery = refineContractInput(listSweepsContract.input.query, {
  ...pagingQuery.shape,
  status: z.enum(sweepStatuses).optional(),
  network: z.string().max(32).optional(),
  invoiceId: z.string().max(64).optional(),
});
export type SweepListQuery = z.output<typeof sweepListQuery>;

/** A page of the organization's sweeps, newest first, with every transaction each signed. */
export async function listSweeps(database: Db, organizationId: string, query: SweepListQuery) {
  const where: Prisma.SweepWhereInput = {
    organizationId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.network ? { network: query.network } : {}),
    ...(query.invoiceId ? { invoiceId: query.invoiceId } : {}),
  };
  const [total, sweeps] = await Promise.all([
    database.sweep.count({ where }),
    database.sweep.findMany({
      where,
      include: { transactions: { orderBy: { createdAt: "asc" } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.rows,
      take: query.rows,
    }),
  ]);
  return { sweeps, total };
}
