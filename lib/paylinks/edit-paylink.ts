import type { z } from "zod";
import type { Db } from "../db/client";
import { getPaylink } from "./get-paylink";
import type { editPaylinkSchema } from "./paylink-schemas";

/** Changes a paylink; sessions already created keep their own price snapshot. */
export async function editPaylink(
  database: Db,
  organizationId: string,
  input: z.output<typeof editPaylinkSchema>,
) {
  const { id, recurring, ...changes } = input;
  await getPaylink(database, organizationId, id);
  return database.paylink.update({
    where: { id },
    data: {
      ...changes,
      ...(recurring === undefined
        ? {}
        : {
            recurringInterval: recurring?.interval ?? null,
            recurringIntervalCount: recurring?.intervalCount ?? null,
          }),
    },
  });
}
