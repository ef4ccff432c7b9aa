import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../db/client";
import type { createPaylinkSchema } from "./paylink-schemas";

export async function createPaylink(
  database: Db,
  organizationId: string,
  input: z.output<typeof createPaylinkSchema>,
) {
  const { recurring, ...fields } = input;
  return database.paylink.create({
    data: {
      id: randomUUID(),
      organizationId,
      ...fields,
      recurringInterval: recurring?.interval ?? null,
      recurringIntervalCount: recurring?.intervalCount ?? null,
    },
  });
}
